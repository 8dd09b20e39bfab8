using System;
using System.Collections.Generic;
using NUnit.Framework;
using Questline;

namespace Questline.Tests
{
    [TestFixture]
    public class JsonTests
    {
        [Test]
        public void ParsesScalars()
        {
            Assert.AreEqual(true, Json.Parse("true"));
            Assert.AreEqual(false, Json.Parse(" false "));
            Assert.IsNull(Json.Parse("null"));
            Assert.AreEqual(42L, Json.Parse("42"));
            Assert.AreEqual(-7L, Json.Parse("-7"));
            Assert.AreEqual(0L, Json.Parse("0"));
            Assert.AreEqual(1.5, Json.Parse("1.5"));
            Assert.AreEqual(-2.5e-3, Json.Parse("-2.5e-3"));
            Assert.AreEqual(1e21, Json.Parse("1E21"));
            Assert.AreEqual(9223372036854775807L, Json.Parse("9223372036854775807"));
            // Beyond long: a double.
            Assert.AreEqual(9223372036854775808.0, Json.Parse("9223372036854775808"));
            Assert.IsInstanceOf<double>(Json.Parse("1.0"));
        }

        [Test]
        public void ParsesStringsWithEscapesAndSurrogatePairs()
        {
            Assert.AreEqual("a\"b\\c/d\b\f\n\r\t", Json.Parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""));
            Assert.AreEqual("é", Json.Parse("\"\\u00e9\""));
            Assert.AreEqual("é", Json.Parse("\"\\u00E9\""));
            Assert.AreEqual("\U0001F600", Json.Parse("\"\\ud83d\\ude00\""));
            Assert.AreEqual("\U0001F600 ü 日本", Json.Parse("\"\U0001F600 ü 日本\""));
            Assert.AreEqual("", Json.Parse("\"\""));
        }

        [Test]
        public void ParsesNestedValuesKeepingKeyOrder()
        {
            var v = (Dictionary<string, object>)Json.Parse("{\"b\": [1, {\"c\": null}, []], \"a\": {}, \"d\": \"x\"}");
            CollectionAssert.AreEqual(new[] { "b", "a", "d" }, new List<string>(v.Keys));
            var b = (List<object>)v["b"];
            Assert.AreEqual(3, b.Count);
            Assert.AreEqual(1L, b[0]);
            Assert.IsTrue(((Dictionary<string, object>)b[1]).ContainsKey("c"));
            Assert.AreEqual(0, ((List<object>)b[2]).Count);
            Assert.AreEqual(0, ((Dictionary<string, object>)v["a"]).Count);
        }

        [TestCase("")]
        [TestCase("{")]
        [TestCase("[1,]")]
        [TestCase("{\"a\":1,}")]
        [TestCase("{a:1}")]
        [TestCase("01")]
        [TestCase("1.")]
        [TestCase(".5")]
        [TestCase("-")]
        [TestCase("1e")]
        [TestCase("\"abc")]
        [TestCase("\"\\x\"")]
        [TestCase("\"\\u12\"")]
        [TestCase("\"a\nb\"")]
        [TestCase("tru")]
        [TestCase("nul")]
        [TestCase("1 2")]
        [TestCase("[1] x")]
        [TestCase("NaN")]
        public void RefusesWhatIsNotJson(string text)
        {
            Assert.Throws<JsonFormatException>(() => Json.Parse(text));
        }

        [Test]
        public void RefusesDeepNesting()
        {
            Assert.Throws<JsonFormatException>(() => Json.Parse(new string('[', 1000) + new string(']', 1000)));
            Assert.DoesNotThrow(() => Json.Parse(new string('[', 100) + new string(']', 100)));
        }

        [Test]
        public void WritesAndReadsBack()
        {
            var value = new Dictionary<string, object>
            {
                { "s", "quote \" backslash \\ newline \n tab \t control \u0001 emoji \U0001F600 line-sep \u2028" },
                { "i", 9007199254740993L },
                { "neg", -3 },
                { "d", 0.1 },
                { "big", 1e300 },
                { "t", true },
                { "n", null },
                { "list", new List<object> { 1L, "two", new Dictionary<string, object>() } },
                { "arr", new[] { "x", "y" } },
            };
            var text = Json.Write(value);
            StringAssert.Contains("\\u0001", text);
            StringAssert.Contains("\\u2028", text);
            StringAssert.Contains("\\\"", text);
            StringAssert.Contains("\U0001F600", text);
            var back = (Dictionary<string, object>)Json.Parse(text);
            Assert.AreEqual(value["s"], back["s"]);
            Assert.AreEqual(9007199254740993L, back["i"]);
            Assert.AreEqual(-3L, back["neg"]);
            Assert.AreEqual(0.1, back["d"]);
            Assert.AreEqual(1e300, back["big"]);
            Assert.AreEqual(true, back["t"]);
            Assert.IsNull(back["n"]);
            Assert.AreEqual("two", ((List<object>)back["list"])[1]);
            Assert.AreEqual("y", ((List<object>)back["arr"])[1]);
            Assert.AreEqual(text, Json.Write(back));
        }

        [Test]
        public void WritesNumbersIndependentOfCulture()
        {
            var saved = System.Threading.Thread.CurrentThread.CurrentCulture;
            try
            {
                System.Threading.Thread.CurrentThread.CurrentCulture = new System.Globalization.CultureInfo("de-DE");
                Assert.AreEqual("[1.5,-0.25]", Json.Write(new List<object> { 1.5, -0.25 }));
                Assert.AreEqual(1.5, Json.Parse("1.5"));
            }
            finally
            {
                System.Threading.Thread.CurrentThread.CurrentCulture = saved;
            }
        }

        [Test]
        public void RefusesNaNAndUnknownObjects()
        {
            Assert.Throws<JsonFormatException>(() => Json.Write(double.NaN));
            Assert.Throws<JsonFormatException>(() => Json.Write(new object()));
        }

        [Test]
        public void GeneratedModelsReadAndWriteTheWireShape()
        {
            var text = "{\"id\":\"m1\",\"title\":\"T\",\"description\":\"D\",\"criteria\":{\"eventName\":\"match\",\"count\":3,\"window\":\"daily\"," +
                "\"filter\":{\"mode\":\"ranked\"},\"aggregate\":{\"op\":\"sum\",\"field\":\"gold\"},\"streak\":{\"length\":3}},\"reward\":{\"kind\":\"item\",\"itemId\":\"sword\",\"quantity\":1},\"rewards\":[{\"kind\":\"item\",\"itemId\":\"sword\",\"quantity\":1}]," +
                "\"campaignId\":null,\"expiresAt\":null,\"iconUrl\":null,\"prerequisites\":[\"a\"],\"locked\":false}";
            var m = Mission.FromJson(Json.Parse(text));
            Assert.AreEqual("m1", m.Id);
            Assert.AreEqual(3, m.Criteria.Count);
            Assert.AreEqual(MissionCriteriaAggregate.OpSum, m.Criteria.Aggregate.Op);
            Assert.AreEqual(3, m.Criteria.Streak.Length);
            Assert.IsNull(m.Criteria.Streak.Repeat);
            Assert.AreEqual("ranked", m.Criteria.Filter["mode"]);
            Assert.AreEqual(Reward.KindItem, m.Reward.Kind);
            Assert.AreEqual(1, m.Reward.Quantity);
            Assert.IsNull(m.Reward.Amount);
            // Reward bundles (issue 39 §2): every reward of the mission, Reward its first.
            Assert.AreEqual(1, m.Rewards.Count);
            Assert.AreEqual("sword", m.Rewards[0].ItemId);
            Assert.IsNull(m.ExpiresAt);
            // Required nullable fields are written as null; absent optional ones are left out.
            Assert.AreEqual(text, Json.Write(m.ToJson()));

            var theme = Theme.FromJson(Json.Parse("{\"primaryColor\":\"#fff\",\"font\":\"Inter\"}"));
            Assert.AreEqual("Inter", theme.Extra["font"]);
            Assert.AreEqual("{\"primaryColor\":\"#fff\",\"font\":\"Inter\"}", Json.Write(theme.ToJson()));
            Assert.Throws<JsonFormatException>(() => Mission.FromJson(Json.Parse("{\"id\":5}")));
            Assert.AreEqual("status=all&limit=5", string.Join("&", new ListMissionsParams { Limit = 5, Status = "all" }.ToQuery().ConvertAll(kv => kv.Key + "=" + kv.Value).ToArray()));
        }
    }
}
