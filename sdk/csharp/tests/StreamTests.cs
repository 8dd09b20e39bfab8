// The live stream against the real service: updates of a claim, resume after a cut connection, the polling
// fallback, callbacks on the caller's SynchronizationContext.
using System;
using System.Collections.Generic;
using NUnit.Framework;
using Questline;
using static Questline.Tests.Live;

namespace Questline.Tests
{
    [TestFixture]
    public class StreamTests
    {
        private static SubscribeOptions Fast()
        {
            return new SubscribeOptions { Backoff = new BackoffOptions { BaseMs = 20, MaxMs = 200 }, PollIntervalMs = 100, ReplayWindowMs = 2000 };
        }

        [Test]
        public void ReceivesAClaimsUpdatesOnTheCallersSynchronizationContext()
        {
            var transport = new RecordingTransport();
            var client = Client(NewUserId("stream"), transport);
            var seen = new Collector();
            using (var main = new PumpContext())
            {
                var options = seen.Options(Fast());
                options.SynchronizationContext = main;
                using (var sub = client.Subscribe(seen.OnUpdate, options))
                {
                    seen.WaitFor(() => seen.HasState(SubscriptionState.Open), "the stream to open");
                    Await(client.SendEventAsync("match_played"));
                    seen.WaitFor(() => seen.Count(SdkUpdate.TypeMissionCompleted, "first-match") == 1, "mission.completed");
                    var claim = Await(client.ClaimMissionAsync("first-match"));
                    seen.WaitFor(() => seen.Count(SdkUpdate.TypeRewardGranted, "first-match") == 1 && seen.Count(SdkUpdate.TypeBalanceChanged, "gems") == 1, "the claim's updates");

                    var grant = seen.Updates.Find(u => u.Type == SdkUpdate.TypeRewardGranted);
                    Assert.AreEqual("gems", grant.Data.Reward.Currency);
                    Assert.AreEqual(50, grant.Data.Reward.Amount);
                    var balance = seen.Updates.Find(u => u.Type == SdkUpdate.TypeBalanceChanged).AsBalance();
                    Assert.AreEqual(claim.Balance.Amount, balance.Amount);
                    var completed = seen.Updates.Find(u => u.Type == SdkUpdate.TypeMissionCompleted).AsMissionProgress();
                    Assert.AreEqual(ProgressStatus.Completed, completed.Status);
                    Assert.IsTrue(seen.Metas.TrueForAll(m => m.Source == UpdateSource.Stream && m.Id != null));
                    Assert.AreEqual(seen.Metas[seen.Metas.Count - 1].Id, sub.LastEventId);
                    Assert.IsTrue(seen.Threads.TrueForAll(t => t == main.ThreadId), "every callback ran on the context's thread");
                    Assert.AreEqual(0, seen.Errors.Count);
                }
                seen.WaitFor(() => seen.HasState(SubscriptionState.Closed), "the Closed state");
                Assert.AreEqual(SubscriptionState.Closed, seen.States[seen.States.Count - 1]);
                Assert.IsTrue(seen.Threads.TrueForAll(t => t == main.ThreadId));
            }
        }

        [Test]
        public void ResumesWithLastEventIdAfterTheConnectionIsCut()
        {
            var transport = new RecordingTransport();
            var client = Client(NewUserId("resume"), transport);
            var seen = new Collector();
            using (var sub = client.Subscribe(seen.OnUpdate, seen.Options(Fast())))
            {
                seen.WaitFor(() => seen.HasState(SubscriptionState.Open), "the stream to open");
                Await(client.SendEventAsync("match_played"));
                seen.WaitFor(() => seen.Count(SdkUpdate.TypeMissionProgress, "three-matches") == 1 && seen.Count(SdkUpdate.TypeMissionCompleted, "first-match") == 1,
                    "the first event's updates");
                var before = sub.LastEventId;
                Assert.IsNotNull(before);

                // Cut the connection and hold the reconnection while the player progresses.
                transport.HoldStreams();
                transport.CutStreams();
                transport.WaitFor(() => transport.Held == 1, "the reconnection");
                Assert.AreEqual(SubscriptionState.Reconnecting, sub.State);
                Await(client.SendEventAsync("match_played"));
                transport.ReleaseStreams();

                seen.WaitFor(() => seen.Count(SdkUpdate.TypeMissionProgress, "three-matches") == 2, "the progress made while disconnected");
                var streams = transport.Requests.FindAll(r => r.Url.EndsWith("/v1/sse/updates"));
                Assert.AreEqual(2, streams.Count);
                Assert.IsFalse(streams[0].Headers.ContainsKey("Last-Event-ID"));
                Assert.AreEqual(before, streams[1].Headers["Last-Event-ID"]);
                var second = seen.Updates.FindLast(u => u.Type == SdkUpdate.TypeMissionProgress).AsMissionProgress();
                Assert.AreEqual(2, second.CurrentCount);
                var ids = seen.Metas.ConvertAll(m => m.Id);
                Assert.AreEqual(ids.Count, new HashSet<string>(ids).Count, "no id delivered twice");
                Assert.AreEqual(2, seen.StateCount(SubscriptionState.Open));
                Assert.IsTrue(seen.Errors.Exists(e => e is NetworkException), "the cut was reported");
            }
        }

        [Test]
        public void PollsWhenTheStreamKeepsFailingAndGoesBackToIt()
        {
            var transport = new RecordingTransport();
            transport.StreamStatus = 502; // a proxy in the way answers an error page
            var client = Client(NewUserId("polling"), transport);
            var seen = new Collector();
            var options = seen.Options(Fast());
            options.FailuresBeforePolling = 2;
            using (var sub = client.Subscribe(seen.OnUpdate, options))
            {
                seen.WaitFor(() => seen.HasState(SubscriptionState.Polling), "polling");
                // The loop polls in turn: once three mission reads have started (one may be the baseline taken at the
                // first failure), the first poll of the loop has been taken in as the base to diff against.
                transport.WaitFor(() => transport.CountRequests(r => r.Url.Contains("/v1/missions?")) >= 3, "two polls");
                Await(client.SendEventAsync("match_played"));
                seen.WaitFor(() => seen.Count(SdkUpdate.TypeMissionCompleted, "first-match") == 1, "mission.completed from polling");
                Await(client.ClaimMissionAsync("first-match"));
                seen.WaitFor(() => seen.Count(SdkUpdate.TypeRewardGranted, "first-match") == 1 && seen.Count(SdkUpdate.TypeBalanceChanged, "gems") == 1, "the claim from polling");
                Assert.IsTrue(seen.Metas.TrueForAll(m => m.Source == UpdateSource.Poll && m.Id == null));
                Assert.IsTrue(seen.Errors.Exists(e => e is ServiceUnavailableException), "the refused streams were reported");

                // The stream is back: polling stops, and its replay does not repeat what polling told.
                transport.StreamStatus = null;
                seen.WaitFor(() => seen.HasState(SubscriptionState.Open), "the stream to come back");
                Await(client.SendEventAsync("match_played"));
                Await(client.SendEventAsync("match_played"));
                seen.WaitFor(() => seen.Count(SdkUpdate.TypeMissionCompleted, "three-matches") == 1, "three-matches completed");
                Assert.AreEqual(1, transport.OpenStreams, "one stream open after the refused ones");
                Assert.AreEqual(1, seen.Count(SdkUpdate.TypeRewardGranted, "first-match"));
                Assert.AreEqual(1, seen.Count(SdkUpdate.TypeMissionCompleted, "first-match"));
                Assert.AreEqual(SubscriptionState.Open, sub.State);
            }
        }

        [Test]
        public void PollsAtOnceWhereStreamingIsUnsupported()
        {
            var transport = new RecordingTransport();
            transport.RefuseStream = () => new StreamUnsupportedException("no streaming on this platform");
            var client = Client(NewUserId("unsupported"), transport);
            var seen = new Collector();
            using (var sub = client.Subscribe(seen.OnUpdate, seen.Options(Fast())))
            {
                seen.WaitFor(() => seen.HasState(SubscriptionState.Polling), "polling");
                transport.WaitFor(() => transport.CountRequests(r => r.Url.Contains("/v1/missions?")) >= 2, "a second poll");
                Await(client.SendEventAsync("win"));
                seen.WaitFor(() => seen.Count(SdkUpdate.TypeMissionCompleted, "win-badge") == 1, "mission.completed from polling");
                Assert.AreEqual(1, transport.CountRequests(r => r.Url.EndsWith("/v1/sse/updates")), "an unsupported stream is not retried");
                Assert.AreEqual(SubscriptionState.Polling, sub.State);
            }
        }

        [Test]
        public void ARefusedTokenOnTheStreamIsReplacedOnceThenFatal()
        {
            var transport = new RecordingTransport();
            var asks = new Counter();
            var client = Client(NewUserId("stream-401"), transport, asks);
            Await(client.RevokeTokenAsync());
            var seen = new Collector();
            using (var sub = client.Subscribe(seen.OnUpdate, seen.Options(Fast())))
            {
                // The cached token was revoked: the stream's 401 asks for a new one and connects with it at once.
                seen.WaitFor(() => seen.HasState(SubscriptionState.Open), "the stream to open with a new token");
                Assert.AreEqual(2, asks.Value);
                Assert.IsTrue(seen.Errors.Exists(e => e is UnauthorizedException));
            }
        }
    }
}
