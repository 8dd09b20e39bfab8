using System;
using System.Collections.Generic;
using NUnit.Framework;
using Questline;

namespace Questline.Tests
{
    [TestFixture]
    public class SseParserTests
    {
        private static List<SseMessage> Parse(params string[] chunks)
        {
            var messages = new List<SseMessage>();
            var p = new SseParser(messages.Add);
            foreach (var c in chunks) p.Feed(c);
            return messages;
        }

        [Test]
        public void JoinsChunksSplitAnywhere()
        {
            var text = "id: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"b\":2}\n\n";
            for (var cut = 0; cut <= text.Length; cut++)
            {
                var m = Parse(text.Substring(0, cut), text.Substring(cut));
                Assert.AreEqual(2, m.Count, "cut at " + cut);
                Assert.AreEqual("1", m[0].Id);
                Assert.AreEqual("{\"b\":2}", m[1].Data);
            }
        }

        [Test]
        public void AcceptsCrLfCrAndLfEvenSplitBetweenCrAndLf()
        {
            var m = Parse("data: a\r", "\ndata: b\r\r", "data: c\n\n");
            Assert.AreEqual(2, m.Count);
            Assert.AreEqual("a\nb", m[0].Data);
            Assert.AreEqual("c", m[1].Data);
        }

        [Test]
        public void ReportsCommentsAndKeepsTheLastIdAcrossMessages()
        {
            var comments = new List<string>();
            var messages = new List<SseMessage>();
            var p = new SseParser(messages.Add, comments.Add);
            p.Feed("\uFEFF: keep-alive\n\nid: 7\nevent: update\ndata: x\nretry: 10\n\ndata: y\n\nid\ndata: z\n\n");
            CollectionAssert.AreEqual(new[] { "keep-alive" }, comments);
            Assert.AreEqual(3, messages.Count);
            Assert.AreEqual("update", messages[0].Event);
            Assert.AreEqual(10, messages[0].Retry);
            Assert.AreEqual("7", messages[1].Id);
            Assert.AreEqual("message", messages[1].Event);
            Assert.AreEqual("", messages[2].Id);
            Assert.AreEqual("", p.LastEventId);
        }

        [Test]
        public void ResetDropsAPartialMessage()
        {
            var messages = new List<SseMessage>();
            var p = new SseParser(messages.Add);
            p.Feed("id: 3\n\ndata: half");
            p.Reset();
            p.Feed("data: whole\n\n");
            Assert.AreEqual(1, messages.Count);
            Assert.AreEqual("whole", messages[0].Data);
            Assert.AreEqual("3", messages[0].Id);
        }
    }

    [TestFixture]
    public class BackoffTests
    {
        [Test]
        public void DoublesFromTheBaseUpToTheCap()
        {
            var o = new BackoffOptions { Jitter = Jitter.None };
            Assert.AreEqual(1000, Backoff.Delay(0, o));
            Assert.AreEqual(2000, Backoff.Delay(1, o));
            Assert.AreEqual(16000, Backoff.Delay(4, o));
            Assert.AreEqual(30000, Backoff.Delay(5, o));
            Assert.AreEqual(30000, Backoff.Delay(1000, o));
        }

        [Test]
        public void JittersWithinTheRange()
        {
            Assert.AreEqual(2000, Backoff.Delay(2, new BackoffOptions { Random = () => 0 }));
            Assert.AreEqual(3999, Backoff.Delay(2, new BackoffOptions { Random = () => 0.9999 }));
            Assert.AreEqual(0, Backoff.Delay(2, new BackoffOptions { Jitter = Jitter.Full, Random = () => 0 }));
            for (var i = 0; i < 200; i++)
            {
                var d = Backoff.Delay(3, new BackoffOptions());
                Assert.That(d, Is.InRange(4000, 8000));
            }
        }
    }

    [TestFixture]
    public class ErrorMappingTests
    {
        private static QuestlineException From(int status, string body, Dictionary<string, string> headers = null)
        {
            return ErrorFactory.FromResponse(status, headers ?? new Dictionary<string, string> { { "X-Request-Id", "req-1" } }, body);
        }

        [Test]
        public void EveryCodeOfTheContractHasItsClassAndStatus()
        {
            foreach (ErrorCode code in Enum.GetValues(typeof(ErrorCode)))
            {
                if (code == ErrorCode.Unknown) continue;
                var wire = ErrorCodes.Wire(code);
                var status = ErrorCodes.Status(code);
                Assert.AreEqual(code, ErrorCodes.Parse(wire));
                var e = From(status, "{\"error\":\"" + wire + "\",\"message\":\"m\"}");
                Assert.AreEqual(wire, e.Code);
                Assert.AreEqual(code, e.ErrorCode);
                Assert.AreEqual(status, e.Status);
                Assert.AreEqual("m", e.Message);
                Assert.AreEqual("req-1", e.RequestId);
                Assert.AreNotEqual(typeof(QuestlineException), e.GetType(), wire + " has a class of its own");
            }
        }

        [Test]
        public void SpecificCodesExtendTheGenericOneOfTheirStatus()
        {
            Assert.IsInstanceOf<ValidationException>(From(400, "{\"error\":\"invalid_event\"}"));
            Assert.IsInstanceOf<NotFoundException>(From(404, "{\"error\":\"mission_not_found\"}"));
            Assert.IsInstanceOf<ConflictException>(From(409, "{\"error\":\"claim_not_ready\"}"));
            Assert.IsInstanceOf<ClaimNotReadyException>(From(409, "{\"error\":\"claim_not_ready\"}"));
            Assert.IsNotInstanceOf<UnauthorizedException>(From(401, "{\"error\":\"invalid_credentials\"}"));
        }

        [Test]
        public void UnknownCodesAndOtherBodiesFallBackOnTheStatus()
        {
            var e = From(404, "{\"error\":\"shiny_new_code\"}");
            Assert.AreEqual(typeof(NotFoundException), e.GetType());
            Assert.AreEqual("shiny_new_code", e.Code);
            Assert.AreEqual(ErrorCode.Unknown, e.ErrorCode);
            Assert.AreEqual(typeof(InternalServerException), From(500, "<html>oops</html>").GetType());
            Assert.AreEqual("http_500", From(500, "").Code);
            Assert.AreEqual(typeof(ServiceUnavailableException), From(502, "bad gateway").GetType());
            Assert.AreEqual(typeof(QuestlineException), From(418, "").GetType());
        }

        [Test]
        public void RateLimitsCarryTheirWait()
        {
            var body = (RateLimitedException)From(429, "{\"error\":\"rate_limited\",\"retryAfterMs\":1500}");
            Assert.AreEqual(1500, body.RetryAfterMs);
            var header = (RateLimitedException)From(429, "{\"error\":\"too_many_streams\"}", new Dictionary<string, string> { { "retry-after", "3" } });
            Assert.AreEqual(3000, header.RetryAfterMs);
            Assert.AreEqual("too_many_streams", header.Code);
        }
    }
}
