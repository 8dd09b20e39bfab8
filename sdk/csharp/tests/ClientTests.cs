// The client against the real service (started by sdk/csharp/csharp-sdk.test.ts with missions first-match
// (match_played x1, 50 gems, campaign c1), three-matches (match_played x3, 10 coins) and win-badge (win x1, a badge)).
using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;
using Questline;
using Questline.Backend;
using static Questline.Tests.Live;

namespace Questline.Tests
{
    [TestFixture]
    public class ClientTests
    {
        [Test]
        public void SendsEventsAndReadsMissionsBalancesCampaignsAndRecommendations()
        {
            var userId = NewUserId("events");
            var client = Client(userId);
            var sent = Await(client.SendEventAsync("match_played", new Dictionary<string, object> { { "mode", "ranked" } }));
            Assert.IsTrue(sent.Accepted);
            Assert.IsNull(sent.Replay);
            CollectionAssert.Contains(sent.MissionsUpdated, "first-match");

            var all = Await(client.ListAllMissionsAsync());
            CollectionAssert.IsSubsetOf(new[] { "first-match", "three-matches", "win-badge" }, all.Missions.ConvertAll(m => m.Id));
            Assert.AreEqual(ProgressStatus.Completed, all.Progress["first-match"].Status);
            Assert.AreEqual(userId, all.Progress["first-match"].UserId);
            Assert.AreEqual(1, all.Progress["three-matches"].CurrentCount);
            Assert.AreEqual(3, all.Progress["three-matches"].TargetCount);

            var page = Await(client.ListMissionsAsync(new ListMissionsParams { Limit = 1 }));
            Assert.AreEqual(1, page.Missions.Count);
            Assert.IsNotNull(page.NextCursor);

            var detail = Await(client.GetMissionAsync("first-match"));
            Assert.AreEqual(Reward.KindCurrency, detail.Mission.Reward.Kind);
            Assert.AreEqual("gems", detail.Mission.Reward.Currency);
            Assert.AreEqual(50, detail.Mission.Reward.Amount);
            Assert.AreEqual(ProgressStatus.Completed, detail.Progress.Status);
            Assert.IsNull(Await(client.GetMissionAsync("win-badge")).Progress);

            var claimed = Await(client.ClaimMissionAsync("first-match"));
            Assert.AreEqual(ProgressStatus.Claimed, claimed.Progress.Status);
            Assert.AreEqual(50, claimed.Balance.Amount);
            Assert.AreEqual(50, Await(client.GetBalanceAsync("gems")).Balance.Amount);
            var balances = Await(client.GetBalancesAsync()).Balances;
            Assert.AreEqual(1, balances.Count);
            Assert.AreEqual("gems", balances[0].Currency);

            var campaigns = Await(client.ListCampaignsAsync()).Campaigns;
            CollectionAssert.Contains(campaigns.ConvertAll(c => c.Id), "c1");
            var campaign = Await(client.GetCampaignAsync("c1", new CampaignParams { Include = "missions" }));
            CollectionAssert.Contains(campaign.Missions.ConvertAll(m => m.Id), "first-match");

            var recommendations = Await(client.RecommendationsAsync(new RecommendationsParams { Limit = 2 }));
            Assert.AreEqual(userId, recommendations.UserId);
            Assert.That(recommendations.MissionIds.Count, Is.InRange(0, 2));
            Assert.IsNotNull(recommendations.Reason);
        }

        [Test]
        public void AsksTheTokenProviderOnceThenAgainOnA401()
        {
            var asks = new Counter();
            var transport = new RecordingTransport();
            var client = Client(NewUserId("token"), transport, asks);
            Await(client.GetBalancesAsync());
            Await(client.GetBalancesAsync());
            Assert.AreEqual(1, asks.Value, "the token is cached");
            Assert.IsTrue(Await(client.RevokeTokenAsync()).Revoked);
            // The revoked token gets a 401: the provider is asked again and the request repeated with the new token.
            Await(client.GetBalancesAsync());
            Assert.AreEqual(2, asks.Value);
            var balanceCalls = transport.Requests.FindAll(r => r.Url.EndsWith("/v1/balance"));
            Assert.AreEqual(4, balanceCalls.Count);
            Assert.AreNotEqual(balanceCalls[2].Headers["Authorization"], balanceCalls[3].Headers["Authorization"]);
            Assert.AreEqual(balanceCalls[0].Headers["Authorization"], balanceCalls[2].Headers["Authorization"]);
        }

        [Test]
        public void RefreshesTheTokenBeforeItExpires()
        {
            var asks = new Counter();
            var now = DateTimeOffset.UtcNow;
            var client = Client(NewUserId("expiry"), null, asks, () => now);
            Await(client.GetBalancesAsync());
            now = now.AddMinutes(30);
            Await(client.GetBalancesAsync());
            Assert.AreEqual(1, asks.Value, "still valid half-way");
            // Tokens live an hour: within a minute of exp, a new one is asked for.
            now = now.AddMinutes(29.5);
            Await(client.GetBalancesAsync());
            Assert.AreEqual(2, asks.Value);
        }

        [Test]
        public void AFixedTokenThatIsRefusedIsAnUnauthorizedException()
        {
            var client = new QuestlineClient(new QuestlineClientOptions { BaseUrl = Url, Token = "not-a-token" });
            var e = Assert.Throws<UnauthorizedException>(() => Await(client.GetBalancesAsync()));
            Assert.AreEqual(401, e.Status);
            Assert.AreEqual(ErrorCode.Unauthorized, e.ErrorCode);
            Assert.IsNotNull(e.RequestId);
        }

        [Test]
        public void ClaimsExactlyOnceWhenTheAnswerIsLostAndTheKeyRetried()
        {
            var transport = new RecordingTransport();
            var dropped = 0;
            transport.DropResponse = r => r.Url.EndsWith("/claim") && Interlocked.Increment(ref dropped) == 1;
            var client = Client(NewUserId("claim"), transport);
            Await(client.SendEventAsync("match_played"));

            // The server claimed, the answer was lost: the SDK repeats the request with the same key and gets the replay.
            var first = Await(client.ClaimMissionAsync("first-match", "claim-key-1"));
            Assert.AreEqual("hit", first.Replay);
            Assert.AreEqual(50, first.Balance.Amount);
            var claims = transport.Requests.FindAll(r => r.Url.EndsWith("/claim"));
            Assert.AreEqual(2, claims.Count);
            Assert.AreEqual("claim-key-1", claims[0].Headers["Idempotency-Key"]);
            Assert.AreEqual("claim-key-1", claims[1].Headers["Idempotency-Key"]);

            // The game retries with its key later: the same answer, nothing granted twice.
            var again = Await(client.ClaimMissionAsync("first-match", "claim-key-1"));
            Assert.AreEqual("hit", again.Replay);
            Assert.AreEqual(50, Await(client.GetBalanceAsync("gems")).Balance.Amount);
            // A new key is a new claim, refused: the mission is claimed already.
            var e = Assert.Throws<ClaimNotReadyException>(() => Await(client.ClaimMissionAsync("first-match")));
            Assert.AreEqual(409, e.Status);
            Assert.IsInstanceOf<ConflictException>(e);
        }

        [Test]
        public void AnEventRetriedUnderItsKeyKeepsItsFirstTimestamp()
        {
            var transport = new RecordingTransport();
            var dropped = 0;
            transport.DropResponse = r => r.Url.EndsWith("/v1/events") && Interlocked.Increment(ref dropped) == 1;
            var now = DateTimeOffset.UtcNow;
            var client = Client(NewUserId("event-retry"), transport, null, () => now);
            var sent = Await(client.SendEventAsync("match_played", null, null, null, "event-key-1"));
            Assert.AreEqual("hit", sent.Replay);
            now = now.AddSeconds(5);
            var later = Await(client.SendEventAsync("match_played", null, null, null, "event-key-1"));
            Assert.AreEqual("hit", later.Replay, "the same key with the same (first) timestamp replays");
            Assert.AreEqual(sent.EventId, later.EventId);
            var bodies = transport.Requests.FindAll(r => r.Url.EndsWith("/v1/events")).ConvertAll(r => r.Body);
            Assert.AreEqual(3, bodies.Count);
            Assert.AreEqual(bodies[0], bodies[1]);
            Assert.AreEqual(bodies[0], bodies[2]);
            var progress = Await(client.GetMissionAsync("three-matches")).Progress;
            Assert.AreEqual(1, progress.CurrentCount, "counted once");
        }

        [Test]
        public void RequestsWithoutAKeyAreNotRetried()
        {
            var transport = new RecordingTransport();
            transport.DropResponse = r => r.Url.EndsWith("/v1/auth/revoke");
            var client = Client(NewUserId("no-retry"), transport);
            var e = Assert.Throws<NetworkException>(() => Await(client.RevokeTokenAsync()));
            Assert.AreEqual(0, e.Status);
            Assert.AreEqual(1, transport.CountRequests(r => r.Url.EndsWith("/v1/auth/revoke")));
        }

        [Test]
        public void AnswersTypedErrors()
        {
            var client = Client(NewUserId("errors"));
            Assert.Throws<MissionNotFoundException>(() => Await(client.GetMissionAsync("no-such-mission")));
            Assert.Throws<CampaignNotFoundException>(() => Await(client.GetCampaignAsync("no-such-campaign")));
            var balance = Assert.Throws<BalanceNotFoundException>(() => Await(client.GetBalanceAsync("gold")));
            Assert.AreEqual(ErrorCode.BalanceNotFound, balance.ErrorCode);
            Assert.IsInstanceOf<NotFoundException>(balance);
            Assert.Throws<ClaimNotReadyException>(() => Await(client.ClaimMissionAsync("win-badge")));
            // Seconds instead of milliseconds: refused, nothing stored.
            var invalid = Assert.Throws<InvalidEventException>(() => Await(client.SendEventAsync("match_played", null, DateTimeOffset.UtcNow.ToUnixTimeSeconds())));
            Assert.IsInstanceOf<ValidationException>(invalid);
            Assert.AreEqual(400, invalid.Status);
            Assert.Throws<UserMismatchException>(() => Await(client.SendEventAsync("match_played", null, null, "someone-else")));
            Await(client.SendEventAsync("win", null, null, null, "reused-key"));
            var reused = Assert.Throws<IdempotencyKeyReusedException>(() => Await(client.SendEventAsync("match_played", null, null, null, "reused-key")));
            Assert.AreEqual(422, reused.Status);
            Assert.Throws<ValidationException>(() => Await(client.ListMissionsAsync(new ListMissionsParams { Limit = 1000 })));
            var credentials = Assert.Throws<InvalidCredentialsException>(() => Await(Backend().IssueTokenAsync(AppId, "wrong-secret", "x")));
            Assert.AreEqual(401, credentials.Status);
        }
    }
}
