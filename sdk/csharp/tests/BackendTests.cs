// The backend part: tokens, signed inbound deliveries against the real service, and the signatures of the
// TypeScript SDK (sdk/csharp/csharp-sdk.test.ts signs with lib/sdk/backend.ts and hands them over in
// QUESTLINE_FIXTURES; what C# signs here goes back in the file it names, for TypeScript's verifyWebhook).
using System;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;
using Questline;
using Questline.Backend;
using static Questline.Tests.Live;

namespace Questline.Tests
{
    [TestFixture]
    public class BackendTests
    {
        private static Dictionary<string, object> Fixtures()
        {
            return (Dictionary<string, object>)Json.Parse(File.ReadAllText(Env("QUESTLINE_FIXTURES")));
        }

        private static Dictionary<string, string> Strings(object o)
        {
            var r = new Dictionary<string, string>();
            foreach (var kv in (Dictionary<string, object>)o) r[kv.Key] = (string)kv.Value;
            return r;
        }

        [Test]
        public void SignsAsTheTypeScriptSdkDoes()
        {
            var cases = (List<object>)Fixtures()["signatures"];
            Assert.That(cases.Count, Is.GreaterThanOrEqualTo(3));
            foreach (Dictionary<string, object> c in cases)
            {
                var expected = (string)c["signature"];
                Assert.AreEqual(expected, Webhooks.Sign((string)c["secret"], (string)c["body"], (long)c["timestamp"]), (string)c["body"]);
            }
        }

        [Test]
        public void VerifiesANotificationTheTypeScriptSdkSigned()
        {
            var n = (Dictionary<string, object>)Fixtures()["notification"];
            var secret = (string)n["secret"];
            var headers = Strings(n["headers"]);
            var body = (string)n["body"];
            var now = DateTimeOffset.FromUnixTimeMilliseconds((long)n["now"]);
            var notification = Webhooks.Verify(secret, headers, body, now);
            Assert.AreEqual(headers["questline-webhook-id"], notification.Id);
            Assert.AreEqual(Notification.TypeRewardGranted, notification.Type);
            Assert.AreEqual("legendary-sword", notification.Data.Reward.ItemId);
            Assert.AreEqual(1, notification.Data.Reward.Quantity);
            Assert.AreEqual("claim-7f3a", notification.Data.IdempotencyKey);

            Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(secret, headers, body.Replace("legendary", "common"), now), "a changed body");
            Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify("other-secret", headers, body, now), "another secret");
            Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(secret, headers, body, now.AddMinutes(6)), "too old");
            var otherId = new Dictionary<string, string>(headers);
            otherId["questline-webhook-id"] = "wh_other";
            Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(secret, otherId, body, now), "another id");
            var noSignature = new Dictionary<string, string>(headers);
            noSignature.Remove("questline-webhook-signature");
            Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(secret, noSignature, body, now), "no signature");
        }

        [Test]
        public void SignsANotificationTheTypeScriptSdkVerifies()
        {
            var now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
            var body = "{\"id\":\"wh_cs_1\",\"type\":\"balance.changed\",\"appId\":\"my-game\",\"userId\":\"p-ü\",\"createdAt\":" + now +
                ",\"data\":{\"userId\":\"p-ü\",\"currency\":\"gems\",\"amount\":50,\"updatedAt\":" + now + "}}";
            const string secret = "endpoint-secret-\U0001F511";
            var headers = new Dictionary<string, object>
            {
                { "Questline-Webhook-Id", "wh_cs_1" },
                { "Questline-Webhook-Timestamp", now.ToString() },
                { "Questline-Webhook-Signature", Webhooks.Sign(secret, body, now) },
            };
            var outPath = (string)Fixtures()["out"];
            File.WriteAllText(outPath, Json.Write(new Dictionary<string, object> { { "secret", secret }, { "headers", headers }, { "body", body }, { "now", now } }));
            // And C# verifies its own.
            var strings = new Dictionary<string, string>();
            foreach (var kv in headers) strings[kv.Key] = (string)kv.Value;
            Assert.AreEqual(50, Webhooks.Verify(secret, strings, body).Data.Amount);
        }

        [Test]
        public void DeliversSignedEventsThatCountOnce()
        {
            var userId = NewUserId("webhook");
            var backend = Backend();
            var delivery = new WebhookDelivery
            {
                Events = new List<WebhookEvent>
                {
                    new WebhookEvent { UserId = userId, Name = "match_played", Payload = new Dictionary<string, object> { { "mode", "ranked" } }, Timestamp = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() },
                },
            };
            var webhookId = "delivery-" + Guid.NewGuid().ToString("N");
            var first = Await(backend.SendWebhookAsync(AppId, WebhookSecret, delivery, webhookId));
            Assert.IsTrue(first.Accepted);
            CollectionAssert.Contains(first.Results[0].MissionsUpdated, "first-match");
            var retry = Await(backend.SendWebhookAsync(AppId, WebhookSecret, delivery, webhookId));
            Assert.AreEqual(first.Results[0].EventId, retry.Results[0].EventId);
            var progress = Await(Client(userId).GetMissionAsync("three-matches")).Progress;
            Assert.AreEqual(1, progress.CurrentCount, "the retried delivery counted once");

            var wrong = Assert.Throws<InvalidSignatureException>(() => Await(backend.SendWebhookAsync(AppId, "not-the-secret", delivery, "delivery-" + Guid.NewGuid().ToString("N"))));
            Assert.AreEqual(401, wrong.Status);
        }

        [Test]
        public void SpendsOncePerKeyWithTheAppSecretOrTheWebhookSignature()
        {
            var userId = NewUserId("spend");
            var client = Client(userId);
            Await(client.SendEventAsync("match_played"));
            Await(client.ClaimMissionAsync("first-match"));
            var backend = Backend();
            var key = "spend-" + Guid.NewGuid().ToString("N");
            var request = new SpendRequest { UserId = userId, Currency = "gems", Amount = 20, Reason = "shop: potion" };
            var spent = Await(backend.SpendAsync(AppId, AppSecret, request, key));
            Assert.AreEqual(30, spent.Balance.Amount);
            Assert.AreEqual(-20, spent.LedgerEntry.Amount);
            Assert.AreEqual(30, spent.LedgerEntry.BalanceAfter);
            var retried = Await(backend.SpendAsync(AppId, AppSecret, request, key));
            Assert.AreEqual(spent.LedgerEntry.Id, retried.LedgerEntry.Id, "a retry with the key answers the first spend");

            var signed = Await(backend.SpendSignedAsync(AppId, WebhookSecret, new SpendRequest { UserId = userId, Currency = "gems", Amount = 5 }, "spend-" + Guid.NewGuid().ToString("N")));
            Assert.AreEqual(25, signed.Balance.Amount);
            Assert.AreEqual(25, Await(client.GetBalanceAsync("gems")).Balance.Amount, "retried once, spent twice");

            var tooMuch = Assert.Throws<InsufficientBalanceException>(() => Await(backend.SpendAsync(AppId, AppSecret,
                new SpendRequest { UserId = userId, Currency = "gems", Amount = 26 }, "spend-" + Guid.NewGuid().ToString("N"))));
            Assert.AreEqual(409, tooMuch.Status);
            Assert.Throws<UserNotFoundException>(() => Await(backend.SpendAsync(AppId, AppSecret,
                new SpendRequest { UserId = NewUserId("never-seen"), Currency = "gems", Amount = 1 }, "spend-" + Guid.NewGuid().ToString("N"))));
            Assert.Throws<InvalidSignatureException>(() => Await(backend.SpendSignedAsync(AppId, "not-the-secret", request, "spend-" + Guid.NewGuid().ToString("N"))));
            Assert.AreEqual(25, Await(client.GetBalanceAsync("gems")).Balance.Amount, "the refusals took nothing");
        }

        [Test]
        public void IssuesTokensWithAttributes()
        {
            var token = Await(Backend().IssueTokenAsync(AppId, AppSecret, NewUserId("attrs"), new Dictionary<string, object> { { "platform", "ios" }, { "level", 12L } }));
            Assert.AreEqual("Bearer", token.TokenType);
            Assert.AreEqual(3600, token.ExpiresIn);
            Assert.IsNotEmpty(token.AccessToken);
        }
    }
}
