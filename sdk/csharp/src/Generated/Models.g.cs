// GENERATED from lib/contract by `npm run sdk:csharp` (scripts/sdk/generate-csharp.ts): do not edit.
// The contract's shapes (the components of GET /v1/openapi.json) as C# classes.
#pragma warning disable 1591
using System.Collections.Generic;

namespace Questline
{
    public sealed partial class Reward
    {
        public const string KindCurrency = "currency";
        public const string KindItem = "item";
        public const string KindBadge = "badge";

        public string Kind { get; set; }
        public string Currency { get; set; }
        public long? Amount { get; set; }
        /// <summary>The display name of the currency, item or badge, when the app defines it</summary>
        public string Name { get; set; }
        /// <summary>Its icon, when its definition has one</summary>
        public string IconUrl { get; set; }
        public string ItemId { get; set; }
        public long? Quantity { get; set; }
        public string BadgeId { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Reward FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Reward");
            var r = new Reward();
            r.Kind = Json.ToStr(Json.Get(o, "kind"));
            r.Currency = Json.ToStr(Json.Get(o, "currency"));
            r.Amount = Json.ToNullableLong(Json.Get(o, "amount"));
            r.Name = Json.ToStr(Json.Get(o, "name"));
            r.IconUrl = Json.ToStr(Json.Get(o, "iconUrl"));
            r.ItemId = Json.ToStr(Json.Get(o, "itemId"));
            r.Quantity = Json.ToNullableLong(Json.Get(o, "quantity"));
            r.BadgeId = Json.ToStr(Json.Get(o, "badgeId"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["kind"] = Kind;
            if (Currency != null) o["currency"] = Currency;
            if (Amount != null) o["amount"] = (object)Amount;
            if (Name != null) o["name"] = Name;
            if (IconUrl != null) o["iconUrl"] = IconUrl;
            if (ItemId != null) o["itemId"] = ItemId;
            if (Quantity != null) o["quantity"] = (object)Quantity;
            if (BadgeId != null) o["badgeId"] = BadgeId;
            return o;
        }
    }

    public sealed partial class MissionCriteriaAggregate
    {
        public const string OpCount = "count";
        public const string OpSum = "sum";
        public const string OpDistinct = "distinct";

        public string Op { get; set; }
        /// <summary>Payload path (dot notation, as in filters)</summary>
        public string Field { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionCriteriaAggregate FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionCriteriaAggregate");
            var r = new MissionCriteriaAggregate();
            r.Op = Json.ToStr(Json.Get(o, "op"));
            r.Field = Json.ToStr(Json.Get(o, "field"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["op"] = Op;
            if (Field != null) o["field"] = Field;
            return o;
        }
    }

    public sealed partial class MissionCriteriaStreak
    {
        /// <summary>Consecutive windows in which the target must be met</summary>
        public long Length { get; set; }
        /// <summary>After the claim the streak starts again (true) or the mission stays claimed (false, the default)</summary>
        public bool? Repeat { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionCriteriaStreak FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionCriteriaStreak");
            var r = new MissionCriteriaStreak();
            r.Length = Json.ToLong(Json.Get(o, "length"));
            r.Repeat = Json.ToNullableBool(Json.Get(o, "repeat"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["length"] = (object)Length;
            if (Repeat != null) o["repeat"] = (object)Repeat;
            return o;
        }
    }

    public sealed partial class MissionCriteria
    {
        public string EventName { get; set; }
        public long Count { get; set; }
        /// <summary>Counting window: calendar buckets of the event timestamp (weeks start on Monday) in the user's `timezone` attribute, or UTC for a user without one</summary>
        public string Window { get; set; }
        /// <summary>Payload path (dot notation) → literal (equality) or operator object (eq ne gt gte lt lte in nin exists); every key must match</summary>
        public Dictionary<string, object> Filter { get; set; }
        /// <summary>What counts toward criteria.count: count (default when absent) adds 1 per qualifying event; sum adds the payload field’s value (missing, non-numeric, non-finite or negative values add nothing; fractions count to the millionth; currentCount is the sum rounded down); distinct counts different values (string, number or boolean; 1 and "1" differ) of the field in the window (target at most 1000)</summary>
        public MissionCriteriaAggregate Aggregate { get; set; }
        /// <summary>Daily or weekly missions only: completes when the target was met in `length` consecutive windows; a window that ends without meeting it starts the streak again</summary>
        public MissionCriteriaStreak Streak { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionCriteria FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionCriteria");
            var r = new MissionCriteria();
            r.EventName = Json.ToStr(Json.Get(o, "eventName"));
            r.Count = Json.ToLong(Json.Get(o, "count"));
            r.Window = Json.ToStr(Json.Get(o, "window"));
            r.Filter = Json.ToMap(Json.Get(o, "filter"), v => v);
            r.Aggregate = MissionCriteriaAggregate.FromJson(Json.Get(o, "aggregate"));
            r.Streak = MissionCriteriaStreak.FromJson(Json.Get(o, "streak"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["eventName"] = EventName;
            o["count"] = (object)Count;
            o["window"] = Window;
            if (Filter != null) o["filter"] = Json.FromMap(Filter, v => v);
            if (Aggregate != null) o["aggregate"] = (Aggregate == null ? null : Aggregate.ToJson());
            if (Streak != null) o["streak"] = (Streak == null ? null : Streak.ToJson());
            return o;
        }
    }

    public sealed partial class Mission
    {
        public string Id { get; set; }
        public string Title { get; set; }
        public string Description { get; set; }
        public MissionCriteria Criteria { get; set; }
        /// <summary>The first of `rewards`</summary>
        public Reward Reward { get; set; }
        /// <summary>Every reward the claim grants (one or more); `reward` is the first</summary>
        public List<Reward> Rewards { get; set; }
        public string CampaignId { get; set; }
        /// <summary>Events at or after this time do not count; null: never expires</summary>
        public long? ExpiresAt { get; set; }
        public string IconUrl { get; set; }
        /// <summary>Missions the user must have claimed first</summary>
        public List<string> Prerequisites { get; set; }
        /// <summary>True while events cannot advance it for this user: a prerequisite is not claimed yet, or its campaign has not started</summary>
        public bool Locked { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Mission FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Mission");
            var r = new Mission();
            r.Id = Json.ToStr(Json.Get(o, "id"));
            r.Title = Json.ToStr(Json.Get(o, "title"));
            r.Description = Json.ToStr(Json.Get(o, "description"));
            r.Criteria = MissionCriteria.FromJson(Json.Get(o, "criteria"));
            r.Reward = Reward.FromJson(Json.Get(o, "reward"));
            r.Rewards = Json.ToList(Json.Get(o, "rewards"), v => Reward.FromJson(v));
            r.CampaignId = Json.ToStr(Json.Get(o, "campaignId"));
            r.ExpiresAt = Json.ToNullableLong(Json.Get(o, "expiresAt"));
            r.IconUrl = Json.ToStr(Json.Get(o, "iconUrl"));
            r.Prerequisites = Json.ToList(Json.Get(o, "prerequisites"), v => Json.ToStr(v));
            r.Locked = Json.ToBool(Json.Get(o, "locked"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["id"] = Id;
            o["title"] = Title;
            o["description"] = Description;
            o["criteria"] = (Criteria == null ? null : Criteria.ToJson());
            o["reward"] = (Reward == null ? null : Reward.ToJson());
            o["rewards"] = Json.FromList(Rewards, v => (v == null ? null : v.ToJson()));
            o["campaignId"] = CampaignId;
            o["expiresAt"] = (object)ExpiresAt;
            o["iconUrl"] = IconUrl;
            o["prerequisites"] = Json.FromList(Prerequisites, v => v);
            o["locked"] = (object)Locked;
            return o;
        }
    }

    /// <summary>Campaign theme: primaryColor (and optionally accentColor, backgroundColor, textColor), CSS colours, plus any other fields the app uses</summary>
    public sealed partial class Theme
    {
        /// <summary>A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour</summary>
        public string PrimaryColor { get; set; }
        /// <summary>A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour</summary>
        public string AccentColor { get; set; }
        /// <summary>A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour</summary>
        public string BackgroundColor { get; set; }
        /// <summary>A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour</summary>
        public string TextColor { get; set; }
        /// <summary>Properties the contract does not name.</summary>
        public Dictionary<string, object> Extra { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Theme FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Theme");
            var r = new Theme();
            r.PrimaryColor = Json.ToStr(Json.Get(o, "primaryColor"));
            r.AccentColor = Json.ToStr(Json.Get(o, "accentColor"));
            r.BackgroundColor = Json.ToStr(Json.Get(o, "backgroundColor"));
            r.TextColor = Json.ToStr(Json.Get(o, "textColor"));
            r.Extra = Json.Rest(o, new[] { "primaryColor", "accentColor", "backgroundColor", "textColor" });
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["primaryColor"] = PrimaryColor;
            if (AccentColor != null) o["accentColor"] = AccentColor;
            if (BackgroundColor != null) o["backgroundColor"] = BackgroundColor;
            if (TextColor != null) o["textColor"] = TextColor;
            if (Extra != null) foreach (var kv in Extra) if (!o.ContainsKey(kv.Key)) o[kv.Key] = kv.Value;
            return o;
        }
    }

    public sealed partial class Campaign
    {
        public string Id { get; set; }
        public string Title { get; set; }
        public string Description { get; set; }
        public long StartAt { get; set; }
        public long EndAt { get; set; }
        public List<string> MissionIds { get; set; }
        public Theme Theme { get; set; }
        public string BannerUrl { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Campaign FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Campaign");
            var r = new Campaign();
            r.Id = Json.ToStr(Json.Get(o, "id"));
            r.Title = Json.ToStr(Json.Get(o, "title"));
            r.Description = Json.ToStr(Json.Get(o, "description"));
            r.StartAt = Json.ToLong(Json.Get(o, "startAt"));
            r.EndAt = Json.ToLong(Json.Get(o, "endAt"));
            r.MissionIds = Json.ToList(Json.Get(o, "missionIds"), v => Json.ToStr(v));
            r.Theme = Theme.FromJson(Json.Get(o, "theme"));
            r.BannerUrl = Json.ToStr(Json.Get(o, "bannerUrl"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["id"] = Id;
            o["title"] = Title;
            o["description"] = Description;
            o["startAt"] = (object)StartAt;
            o["endAt"] = (object)EndAt;
            o["missionIds"] = Json.FromList(MissionIds, v => v);
            if (Theme != null) o["theme"] = (Theme == null ? null : Theme.ToJson());
            o["bannerUrl"] = BannerUrl;
            return o;
        }
    }

    /// <summary>The values of ProgressStatus.</summary>
    public static class ProgressStatus
    {
        public const string Active = "active";
        public const string Completed = "completed";
        public const string Claimed = "claimed";
        public const string Locked = "locked";
    }

    public sealed partial class MissionProgressStreak
    {
        /// <summary>Consecutive windows met so far, ending with the current or the previous window (0 once a window was missed)</summary>
        public long Current { get; set; }
        public long Length { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionProgressStreak FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionProgressStreak");
            var r = new MissionProgressStreak();
            r.Current = Json.ToLong(Json.Get(o, "current"));
            r.Length = Json.ToLong(Json.Get(o, "length"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["current"] = (object)Current;
            o["length"] = (object)Length;
            return o;
        }
    }

    public sealed partial class MissionProgress
    {
        public string UserId { get; set; }
        public string MissionId { get; set; }
        public string Status { get; set; }
        /// <summary>currentCount / targetCount, capped at 1</summary>
        public double Progress { get; set; }
        public long CurrentCount { get; set; }
        public long TargetCount { get; set; }
        public double UpdatedAt { get; set; }
        /// <summary>Streak missions only</summary>
        public MissionProgressStreak Streak { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionProgress FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionProgress");
            var r = new MissionProgress();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.MissionId = Json.ToStr(Json.Get(o, "missionId"));
            r.Status = Json.ToStr(Json.Get(o, "status"));
            r.Progress = Json.ToDouble(Json.Get(o, "progress"));
            r.CurrentCount = Json.ToLong(Json.Get(o, "currentCount"));
            r.TargetCount = Json.ToLong(Json.Get(o, "targetCount"));
            r.UpdatedAt = Json.ToDouble(Json.Get(o, "updatedAt"));
            r.Streak = MissionProgressStreak.FromJson(Json.Get(o, "streak"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["missionId"] = MissionId;
            o["status"] = Status;
            o["progress"] = (object)Progress;
            o["currentCount"] = (object)CurrentCount;
            o["targetCount"] = (object)TargetCount;
            o["updatedAt"] = (object)UpdatedAt;
            if (Streak != null) o["streak"] = (Streak == null ? null : Streak.ToJson());
            return o;
        }
    }

    public sealed partial class Balance
    {
        public string UserId { get; set; }
        public string Currency { get; set; }
        public long Amount { get; set; }
        public double UpdatedAt { get; set; }
        /// <summary>The currency’s display name, when the app defines its currencies (GET /v1/balance)</summary>
        public string Name { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Balance FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Balance");
            var r = new Balance();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.Currency = Json.ToStr(Json.Get(o, "currency"));
            r.Amount = Json.ToLong(Json.Get(o, "amount"));
            r.UpdatedAt = Json.ToDouble(Json.Get(o, "updatedAt"));
            r.Name = Json.ToStr(Json.Get(o, "name"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["currency"] = Currency;
            o["amount"] = (object)Amount;
            o["updatedAt"] = (object)UpdatedAt;
            if (Name != null) o["name"] = Name;
            return o;
        }
    }

    public sealed partial class LedgerEntry
    {
        public double Id { get; set; }
        public string Kind { get; set; }
        public string Currency { get; set; }
        public double? Amount { get; set; }
        public string ItemId { get; set; }
        public double? Quantity { get; set; }
        public string BadgeId { get; set; }
        public string MissionId { get; set; }
        public double? BalanceAfter { get; set; }
        public double CreatedAt { get; set; }
        /// <summary>Staff grants and corrections: who (staff:&lt;email&gt; or admin-api-key); `backend` for a spend by the game backend; null for mission rewards</summary>
        public string Actor { get; set; }
        /// <summary>Staff grants, corrections and spends: why</summary>
        public string Reason { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static LedgerEntry FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "LedgerEntry");
            var r = new LedgerEntry();
            r.Id = Json.ToDouble(Json.Get(o, "id"));
            r.Kind = Json.ToStr(Json.Get(o, "kind"));
            r.Currency = Json.ToStr(Json.Get(o, "currency"));
            r.Amount = Json.ToNullableDouble(Json.Get(o, "amount"));
            r.ItemId = Json.ToStr(Json.Get(o, "itemId"));
            r.Quantity = Json.ToNullableDouble(Json.Get(o, "quantity"));
            r.BadgeId = Json.ToStr(Json.Get(o, "badgeId"));
            r.MissionId = Json.ToStr(Json.Get(o, "missionId"));
            r.BalanceAfter = Json.ToNullableDouble(Json.Get(o, "balanceAfter"));
            r.CreatedAt = Json.ToDouble(Json.Get(o, "createdAt"));
            r.Actor = Json.ToStr(Json.Get(o, "actor"));
            r.Reason = Json.ToStr(Json.Get(o, "reason"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["id"] = (object)Id;
            o["kind"] = Kind;
            o["currency"] = Currency;
            o["amount"] = (object)Amount;
            o["itemId"] = ItemId;
            o["quantity"] = (object)Quantity;
            o["badgeId"] = BadgeId;
            o["missionId"] = MissionId;
            o["balanceAfter"] = (object)BalanceAfter;
            o["createdAt"] = (object)CreatedAt;
            o["actor"] = Actor;
            o["reason"] = Reason;
            return o;
        }
    }

    public sealed partial class SdkUpdateDataStreak
    {
        /// <summary>Consecutive windows met so far, ending with the current or the previous window (0 once a window was missed)</summary>
        public long Current { get; set; }
        public long Length { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static SdkUpdateDataStreak FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "SdkUpdateDataStreak");
            var r = new SdkUpdateDataStreak();
            r.Current = Json.ToLong(Json.Get(o, "current"));
            r.Length = Json.ToLong(Json.Get(o, "length"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["current"] = (object)Current;
            o["length"] = (object)Length;
            return o;
        }
    }

    public sealed partial class SdkUpdateData
    {
        public string UserId { get; set; }
        public string MissionId { get; set; }
        public string Status { get; set; }
        /// <summary>currentCount / targetCount, capped at 1</summary>
        public double? Progress { get; set; }
        public long? CurrentCount { get; set; }
        public long? TargetCount { get; set; }
        public double? UpdatedAt { get; set; }
        /// <summary>Streak missions only</summary>
        public SdkUpdateDataStreak Streak { get; set; }
        public Reward Reward { get; set; }
        public string Currency { get; set; }
        public long? Amount { get; set; }
        /// <summary>The currency’s display name, when the app defines its currencies (GET /v1/balance)</summary>
        public string Name { get; set; }
        public List<string> MissionIds { get; set; }
        public string Reason { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static SdkUpdateData FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "SdkUpdateData");
            var r = new SdkUpdateData();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.MissionId = Json.ToStr(Json.Get(o, "missionId"));
            r.Status = Json.ToStr(Json.Get(o, "status"));
            r.Progress = Json.ToNullableDouble(Json.Get(o, "progress"));
            r.CurrentCount = Json.ToNullableLong(Json.Get(o, "currentCount"));
            r.TargetCount = Json.ToNullableLong(Json.Get(o, "targetCount"));
            r.UpdatedAt = Json.ToNullableDouble(Json.Get(o, "updatedAt"));
            r.Streak = SdkUpdateDataStreak.FromJson(Json.Get(o, "streak"));
            r.Reward = Reward.FromJson(Json.Get(o, "reward"));
            r.Currency = Json.ToStr(Json.Get(o, "currency"));
            r.Amount = Json.ToNullableLong(Json.Get(o, "amount"));
            r.Name = Json.ToStr(Json.Get(o, "name"));
            r.MissionIds = Json.ToList(Json.Get(o, "missionIds"), v => Json.ToStr(v));
            r.Reason = Json.ToStr(Json.Get(o, "reason"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            if (MissionId != null) o["missionId"] = MissionId;
            if (Status != null) o["status"] = Status;
            if (Progress != null) o["progress"] = (object)Progress;
            if (CurrentCount != null) o["currentCount"] = (object)CurrentCount;
            if (TargetCount != null) o["targetCount"] = (object)TargetCount;
            if (UpdatedAt != null) o["updatedAt"] = (object)UpdatedAt;
            if (Streak != null) o["streak"] = (Streak == null ? null : Streak.ToJson());
            if (Reward != null) o["reward"] = (Reward == null ? null : Reward.ToJson());
            if (Currency != null) o["currency"] = Currency;
            if (Amount != null) o["amount"] = (object)Amount;
            if (Name != null) o["name"] = Name;
            if (MissionIds != null) o["missionIds"] = Json.FromList(MissionIds, v => v);
            if (Reason != null) o["reason"] = Reason;
            return o;
        }
    }

    public sealed partial class SdkUpdate
    {
        public const string TypeMissionProgress = "mission.progress";
        public const string TypeMissionCompleted = "mission.completed";
        public const string TypeRewardGranted = "reward.granted";
        public const string TypeBalanceChanged = "balance.changed";
        public const string TypeRecommendation = "recommendation";

        public string Type { get; set; }
        public SdkUpdateData Data { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static SdkUpdate FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "SdkUpdate");
            var r = new SdkUpdate();
            r.Type = Json.ToStr(Json.Get(o, "type"));
            r.Data = SdkUpdateData.FromJson(Json.Get(o, "data"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["type"] = Type;
            o["data"] = (Data == null ? null : Data.ToJson());
            return o;
        }
    }

    public sealed partial class ErrorBody
    {
        /// <summary>The error code (see the error table)</summary>
        public string Error { get; set; }
        public string Message { get; set; }
        /// <summary>On rate_limited and too_many_streams: milliseconds to wait</summary>
        public double? RetryAfterMs { get; set; }
        /// <summary>On grant_limit_exceeded: the limit passed (per grant or per day); on balance_limit: the currency’s maxBalance</summary>
        public double? Limit { get; set; }
        /// <summary>On grant_limit_exceeded: what the staff member may still grant of the currency today (UTC)</summary>
        public double? Remaining { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static ErrorBody FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "ErrorBody");
            var r = new ErrorBody();
            r.Error = Json.ToStr(Json.Get(o, "error"));
            r.Message = Json.ToStr(Json.Get(o, "message"));
            r.RetryAfterMs = Json.ToNullableDouble(Json.Get(o, "retryAfterMs"));
            r.Limit = Json.ToNullableDouble(Json.Get(o, "limit"));
            r.Remaining = Json.ToNullableDouble(Json.Get(o, "remaining"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["error"] = Error;
            if (Message != null) o["message"] = Message;
            if (RetryAfterMs != null) o["retryAfterMs"] = (object)RetryAfterMs;
            if (Limit != null) o["limit"] = (object)Limit;
            if (Remaining != null) o["remaining"] = (object)Remaining;
            return o;
        }
    }

    public sealed partial class TokenRequest
    {
        public string AppId { get; set; }
        public string AppSecret { get; set; }
        public string UserId { get; set; }
        /// <summary>User attributes to merge: key (1–64 characters) → string (≤ 256 characters), number or boolean; null deletes the key. At most 32 keys, in the update and stored. `timezone` is reserved: an IANA zone name, the user's calendar for daily, weekly and monthly windows.</summary>
        public Dictionary<string, object> Attributes { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static TokenRequest FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "TokenRequest");
            var r = new TokenRequest();
            r.AppId = Json.ToStr(Json.Get(o, "appId"));
            r.AppSecret = Json.ToStr(Json.Get(o, "appSecret"));
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.Attributes = Json.ToMap(Json.Get(o, "attributes"), v => v);
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["appId"] = AppId;
            o["appSecret"] = AppSecret;
            o["userId"] = UserId;
            if (Attributes != null) o["attributes"] = Json.FromMap(Attributes, v => v);
            return o;
        }
    }

    public sealed partial class TokenResponse
    {
        public string AccessToken { get; set; }
        public string TokenType { get; set; }
        public double ExpiresIn { get; set; }
        public double ExpiresAt { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static TokenResponse FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "TokenResponse");
            var r = new TokenResponse();
            r.AccessToken = Json.ToStr(Json.Get(o, "accessToken"));
            r.TokenType = Json.ToStr(Json.Get(o, "tokenType"));
            r.ExpiresIn = Json.ToDouble(Json.Get(o, "expiresIn"));
            r.ExpiresAt = Json.ToDouble(Json.Get(o, "expiresAt"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["accessToken"] = AccessToken;
            o["tokenType"] = TokenType;
            o["expiresIn"] = (object)ExpiresIn;
            o["expiresAt"] = (object)ExpiresAt;
            return o;
        }
    }

    public sealed partial class RevokeResponse
    {
        public bool Revoked { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static RevokeResponse FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "RevokeResponse");
            var r = new RevokeResponse();
            r.Revoked = Json.ToBool(Json.Get(o, "revoked"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["revoked"] = (object)Revoked;
            return o;
        }
    }

    public sealed partial class EventRequest
    {
        /// <summary>Must equal the token subject</summary>
        public string UserId { get; set; }
        public string Name { get; set; }
        /// <summary>Input of the mission criteria filters</summary>
        public Dictionary<string, object> Payload { get; set; }
        /// <summary>Unix ms (not seconds) of the event, as the device saw it: at most 5 minutes ahead of the server clock and at most 24 hours old, else 400 invalid_event. A daily/weekly/monthly mission counts it only while its window is the current one by the server clock</summary>
        public long Timestamp { get; set; }
        /// <summary>The Idempotency-Key header wins when both are given</summary>
        public string IdempotencyKey { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static EventRequest FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "EventRequest");
            var r = new EventRequest();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.Name = Json.ToStr(Json.Get(o, "name"));
            r.Payload = Json.ToMap(Json.Get(o, "payload"), v => v);
            r.Timestamp = Json.ToLong(Json.Get(o, "timestamp"));
            r.IdempotencyKey = Json.ToStr(Json.Get(o, "idempotencyKey"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["name"] = Name;
            o["payload"] = Json.FromMap(Payload, v => v);
            o["timestamp"] = (object)Timestamp;
            if (IdempotencyKey != null) o["idempotencyKey"] = IdempotencyKey;
            return o;
        }
    }

    public sealed partial class EventResponse
    {
        public bool Accepted { get; set; }
        public string EventId { get; set; }
        /// <summary>Missions whose progress this event changed</summary>
        public List<string> MissionsUpdated { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static EventResponse FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "EventResponse");
            var r = new EventResponse();
            r.Accepted = Json.ToBool(Json.Get(o, "accepted"));
            r.EventId = Json.ToStr(Json.Get(o, "eventId"));
            r.MissionsUpdated = Json.ToList(Json.Get(o, "missionsUpdated"), v => Json.ToStr(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["accepted"] = (object)Accepted;
            o["eventId"] = EventId;
            o["missionsUpdated"] = Json.FromList(MissionsUpdated, v => v);
            return o;
        }
    }

    public sealed partial class MissionList
    {
        public List<Mission> Missions { get; set; }
        /// <summary>Mission id → the caller’s progress, for missions with a record</summary>
        public Dictionary<string, MissionProgress> Progress { get; set; }
        /// <summary>null on the last page</summary>
        public string NextCursor { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionList FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionList");
            var r = new MissionList();
            r.Missions = Json.ToList(Json.Get(o, "missions"), v => Mission.FromJson(v));
            r.Progress = Json.ToMap(Json.Get(o, "progress"), v => MissionProgress.FromJson(v));
            r.NextCursor = Json.ToStr(Json.Get(o, "nextCursor"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["missions"] = Json.FromList(Missions, v => (v == null ? null : v.ToJson()));
            o["progress"] = Json.FromMap(Progress, v => (v == null ? null : v.ToJson()));
            o["nextCursor"] = NextCursor;
            return o;
        }
    }

    public sealed partial class MissionDetail
    {
        public Mission Mission { get; set; }
        /// <summary>null before the first qualifying event</summary>
        public MissionProgress Progress { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static MissionDetail FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "MissionDetail");
            var r = new MissionDetail();
            r.Mission = Mission.FromJson(Json.Get(o, "mission"));
            r.Progress = MissionProgress.FromJson(Json.Get(o, "progress"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["mission"] = (Mission == null ? null : Mission.ToJson());
            o["progress"] = (Progress == null ? null : Progress.ToJson());
            return o;
        }
    }

    public sealed partial class ClaimResponse
    {
        public MissionProgress Progress { get; set; }
        /// <summary>The balance of the first currency the claim granted; null when it granted none</summary>
        public Balance Balance { get; set; }
        /// <summary>The first reward granted (the first of `rewards`)</summary>
        public Reward Reward { get; set; }
        /// <summary>Every reward the claim granted, in the mission’s order</summary>
        public List<Reward> Rewards { get; set; }
        /// <summary>The balance of each currency the claim granted, in the order of `rewards` (empty when it granted none)</summary>
        public List<Balance> Balances { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static ClaimResponse FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "ClaimResponse");
            var r = new ClaimResponse();
            r.Progress = MissionProgress.FromJson(Json.Get(o, "progress"));
            r.Balance = Balance.FromJson(Json.Get(o, "balance"));
            r.Reward = Reward.FromJson(Json.Get(o, "reward"));
            r.Rewards = Json.ToList(Json.Get(o, "rewards"), v => Reward.FromJson(v));
            r.Balances = Json.ToList(Json.Get(o, "balances"), v => Balance.FromJson(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["progress"] = (Progress == null ? null : Progress.ToJson());
            o["balance"] = (Balance == null ? null : Balance.ToJson());
            o["reward"] = (Reward == null ? null : Reward.ToJson());
            o["rewards"] = Json.FromList(Rewards, v => (v == null ? null : v.ToJson()));
            o["balances"] = Json.FromList(Balances, v => (v == null ? null : v.ToJson()));
            return o;
        }
    }

    public sealed partial class BalanceList
    {
        public List<Balance> Balances { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static BalanceList FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "BalanceList");
            var r = new BalanceList();
            r.Balances = Json.ToList(Json.Get(o, "balances"), v => Balance.FromJson(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["balances"] = Json.FromList(Balances, v => (v == null ? null : v.ToJson()));
            return o;
        }
    }

    public sealed partial class SingleBalance
    {
        public Balance Balance { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static SingleBalance FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "SingleBalance");
            var r = new SingleBalance();
            r.Balance = Balance.FromJson(Json.Get(o, "balance"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["balance"] = (Balance == null ? null : Balance.ToJson());
            return o;
        }
    }

    public sealed partial class SpendRequest
    {
        /// <summary>The player; 404 user_not_found when the app has never seen them</summary>
        public string UserId { get; set; }
        /// <summary>A currency of the app (docs/api.md, "Defined currencies"); 400 otherwise</summary>
        public string Currency { get; set; }
        /// <summary>How much to take (positive); 409 insufficient_balance when the balance is smaller</summary>
        public long Amount { get; set; }
        /// <summary>Why (kept on the ledger row)</summary>
        public string Reason { get; set; }
        /// <summary>The Idempotency-Key again, inside the signed body: required with the webhook signature (so a captured request cannot be replayed under a new key), optional with the app secret</summary>
        public string IdempotencyKey { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static SpendRequest FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "SpendRequest");
            var r = new SpendRequest();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.Currency = Json.ToStr(Json.Get(o, "currency"));
            r.Amount = Json.ToLong(Json.Get(o, "amount"));
            r.Reason = Json.ToStr(Json.Get(o, "reason"));
            r.IdempotencyKey = Json.ToStr(Json.Get(o, "idempotencyKey"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["currency"] = Currency;
            o["amount"] = (object)Amount;
            if (Reason != null) o["reason"] = Reason;
            if (IdempotencyKey != null) o["idempotencyKey"] = IdempotencyKey;
            return o;
        }
    }

    public sealed partial class SpendResponse
    {
        /// <summary>The balance after the spend</summary>
        public Balance Balance { get; set; }
        /// <summary>The ledger row of the spend: a negative amount, actor `backend`</summary>
        public LedgerEntry LedgerEntry { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static SpendResponse FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "SpendResponse");
            var r = new SpendResponse();
            r.Balance = Balance.FromJson(Json.Get(o, "balance"));
            r.LedgerEntry = LedgerEntry.FromJson(Json.Get(o, "ledgerEntry"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["balance"] = (Balance == null ? null : Balance.ToJson());
            o["ledgerEntry"] = (LedgerEntry == null ? null : LedgerEntry.ToJson());
            return o;
        }
    }

    public sealed partial class CampaignList
    {
        public List<Campaign> Campaigns { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static CampaignList FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "CampaignList");
            var r = new CampaignList();
            r.Campaigns = Json.ToList(Json.Get(o, "campaigns"), v => Campaign.FromJson(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["campaigns"] = Json.FromList(Campaigns, v => (v == null ? null : v.ToJson()));
            return o;
        }
    }

    public sealed partial class CampaignDetail
    {
        public Campaign Campaign { get; set; }
        /// <summary>With include=missions</summary>
        public List<Mission> Missions { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static CampaignDetail FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "CampaignDetail");
            var r = new CampaignDetail();
            r.Campaign = Campaign.FromJson(Json.Get(o, "campaign"));
            r.Missions = Json.ToList(Json.Get(o, "missions"), v => Mission.FromJson(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["campaign"] = (Campaign == null ? null : Campaign.ToJson());
            if (Missions != null) o["missions"] = Json.FromList(Missions, v => (v == null ? null : v.ToJson()));
            return o;
        }
    }

    public sealed partial class WebhookEvent
    {
        /// <summary>The player the event is for (any user of the app)</summary>
        public string UserId { get; set; }
        public string Name { get; set; }
        /// <summary>Input of the mission criteria filters</summary>
        public Dictionary<string, object> Payload { get; set; }
        /// <summary>Unix ms (not seconds) of the event: at most 5 minutes ahead of the server clock and at most 7 days old (a backend’s buffer), else 400 validation_error naming events[i].timestamp</summary>
        public long Timestamp { get; set; }
        /// <summary>Shared with POST /v1/events: the same key and event there or here is applied once</summary>
        public string IdempotencyKey { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static WebhookEvent FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "WebhookEvent");
            var r = new WebhookEvent();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.Name = Json.ToStr(Json.Get(o, "name"));
            r.Payload = Json.ToMap(Json.Get(o, "payload"), v => v);
            r.Timestamp = Json.ToLong(Json.Get(o, "timestamp"));
            r.IdempotencyKey = Json.ToStr(Json.Get(o, "idempotencyKey"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["name"] = Name;
            o["payload"] = Json.FromMap(Payload, v => v);
            o["timestamp"] = (object)Timestamp;
            if (IdempotencyKey != null) o["idempotencyKey"] = IdempotencyKey;
            return o;
        }
    }

    public sealed partial class WebhookDeliveryUsersItem
    {
        /// <summary>The player whose attributes change</summary>
        public string UserId { get; set; }
        /// <summary>User attributes to merge: key (1–64 characters) → string (≤ 256 characters), number or boolean; null deletes the key. At most 32 keys, in the update and stored. `timezone` is reserved: an IANA zone name, the user's calendar for daily, weekly and monthly windows.</summary>
        public Dictionary<string, object> Attributes { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static WebhookDeliveryUsersItem FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "WebhookDeliveryUsersItem");
            var r = new WebhookDeliveryUsersItem();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.Attributes = Json.ToMap(Json.Get(o, "attributes"), v => v);
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["attributes"] = Json.FromMap(Attributes, v => v);
            return o;
        }
    }

    public sealed partial class WebhookDelivery
    {
        /// <summary>Applied whole or not at all, in this order (after `users`); required unless `users` is given</summary>
        public List<WebhookEvent> Events { get; set; }
        /// <summary>Attribute updates, merged in this order before the events, in the same transaction; required unless `events` is given</summary>
        public List<WebhookDeliveryUsersItem> Users { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static WebhookDelivery FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "WebhookDelivery");
            var r = new WebhookDelivery();
            r.Events = Json.ToList(Json.Get(o, "events"), v => WebhookEvent.FromJson(v));
            r.Users = Json.ToList(Json.Get(o, "users"), v => WebhookDeliveryUsersItem.FromJson(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            if (Events != null) o["events"] = Json.FromList(Events, v => (v == null ? null : v.ToJson()));
            if (Users != null) o["users"] = Json.FromList(Users, v => (v == null ? null : v.ToJson()));
            return o;
        }
    }

    public sealed partial class WebhookResponseResultsItem
    {
        public string EventId { get; set; }
        /// <summary>Missions whose progress this event changed</summary>
        public List<string> MissionsUpdated { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static WebhookResponseResultsItem FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "WebhookResponseResultsItem");
            var r = new WebhookResponseResultsItem();
            r.EventId = Json.ToStr(Json.Get(o, "eventId"));
            r.MissionsUpdated = Json.ToList(Json.Get(o, "missionsUpdated"), v => Json.ToStr(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["eventId"] = EventId;
            o["missionsUpdated"] = Json.FromList(MissionsUpdated, v => v);
            return o;
        }
    }

    public sealed partial class WebhookResponse
    {
        public bool Accepted { get; set; }
        /// <summary>One per event, in the order of the events</summary>
        public List<WebhookResponseResultsItem> Results { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static WebhookResponse FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "WebhookResponse");
            var r = new WebhookResponse();
            r.Accepted = Json.ToBool(Json.Get(o, "accepted"));
            r.Results = Json.ToList(Json.Get(o, "results"), v => WebhookResponseResultsItem.FromJson(v));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["accepted"] = (object)Accepted;
            o["results"] = Json.FromList(Results, v => (v == null ? null : v.ToJson()));
            return o;
        }
    }

    public sealed partial class Recommendations
    {
        public string UserId { get; set; }
        /// <summary>Best first; only missions the caller can still progress or claim</summary>
        public List<string> MissionIds { get; set; }
        /// <summary>Why, for the player</summary>
        public string Reason { get; set; }
        /// <summary>true when the deterministic ranking answered (no model configured, or the model failed)</summary>
        public bool Fallback { get; set; }
        /// <summary>Unix ms when this answer was computed (a cached answer keeps its time)</summary>
        public double GeneratedAt { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Recommendations FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Recommendations");
            var r = new Recommendations();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.MissionIds = Json.ToList(Json.Get(o, "missionIds"), v => Json.ToStr(v));
            r.Reason = Json.ToStr(Json.Get(o, "reason"));
            r.Fallback = Json.ToBool(Json.Get(o, "fallback"));
            r.GeneratedAt = Json.ToDouble(Json.Get(o, "generatedAt"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["userId"] = UserId;
            o["missionIds"] = Json.FromList(MissionIds, v => v);
            o["reason"] = Reason;
            o["fallback"] = (object)Fallback;
            o["generatedAt"] = (object)GeneratedAt;
            return o;
        }
    }

    public sealed partial class NotificationDataStreak
    {
        /// <summary>Consecutive windows met so far, ending with the current or the previous window (0 once a window was missed)</summary>
        public long Current { get; set; }
        public long Length { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static NotificationDataStreak FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "NotificationDataStreak");
            var r = new NotificationDataStreak();
            r.Current = Json.ToLong(Json.Get(o, "current"));
            r.Length = Json.ToLong(Json.Get(o, "length"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["current"] = (object)Current;
            o["length"] = (object)Length;
            return o;
        }
    }

    public sealed partial class NotificationData
    {
        public string UserId { get; set; }
        /// <summary>The mission whose claim reached the threshold</summary>
        public string MissionId { get; set; }
        public string Status { get; set; }
        /// <summary>currentCount / targetCount, capped at 1</summary>
        public double? Progress { get; set; }
        public long? CurrentCount { get; set; }
        public long? TargetCount { get; set; }
        public double? UpdatedAt { get; set; }
        /// <summary>Streak missions only</summary>
        public NotificationDataStreak Streak { get; set; }
        public Reward Reward { get; set; }
        /// <summary>The claim’s Idempotency-Key (null when the claim had none)</summary>
        public string IdempotencyKey { get; set; }
        public string Currency { get; set; }
        public long? Amount { get; set; }
        /// <summary>The currency’s display name, when the app defines its currencies (GET /v1/balance)</summary>
        public string Name { get; set; }
        public string CampaignId { get; set; }
        /// <summary>The percentage of the budget reached: 80 or 100</summary>
        public long? Threshold { get; set; }
        /// <summary>What the campaign has granted in this currency, this claim included</summary>
        public long? Spent { get; set; }
        /// <summary>The campaign’s budget of this currency</summary>
        public long? Budget { get; set; }
        /// <summary>When that claim committed</summary>
        public long? At { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static NotificationData FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "NotificationData");
            var r = new NotificationData();
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.MissionId = Json.ToStr(Json.Get(o, "missionId"));
            r.Status = Json.ToStr(Json.Get(o, "status"));
            r.Progress = Json.ToNullableDouble(Json.Get(o, "progress"));
            r.CurrentCount = Json.ToNullableLong(Json.Get(o, "currentCount"));
            r.TargetCount = Json.ToNullableLong(Json.Get(o, "targetCount"));
            r.UpdatedAt = Json.ToNullableDouble(Json.Get(o, "updatedAt"));
            r.Streak = NotificationDataStreak.FromJson(Json.Get(o, "streak"));
            r.Reward = Reward.FromJson(Json.Get(o, "reward"));
            r.IdempotencyKey = Json.ToStr(Json.Get(o, "idempotencyKey"));
            r.Currency = Json.ToStr(Json.Get(o, "currency"));
            r.Amount = Json.ToNullableLong(Json.Get(o, "amount"));
            r.Name = Json.ToStr(Json.Get(o, "name"));
            r.CampaignId = Json.ToStr(Json.Get(o, "campaignId"));
            r.Threshold = Json.ToNullableLong(Json.Get(o, "threshold"));
            r.Spent = Json.ToNullableLong(Json.Get(o, "spent"));
            r.Budget = Json.ToNullableLong(Json.Get(o, "budget"));
            r.At = Json.ToNullableLong(Json.Get(o, "at"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            if (UserId != null) o["userId"] = UserId;
            if (MissionId != null) o["missionId"] = MissionId;
            if (Status != null) o["status"] = Status;
            if (Progress != null) o["progress"] = (object)Progress;
            if (CurrentCount != null) o["currentCount"] = (object)CurrentCount;
            if (TargetCount != null) o["targetCount"] = (object)TargetCount;
            if (UpdatedAt != null) o["updatedAt"] = (object)UpdatedAt;
            if (Streak != null) o["streak"] = (Streak == null ? null : Streak.ToJson());
            if (Reward != null) o["reward"] = (Reward == null ? null : Reward.ToJson());
            if (IdempotencyKey != null) o["idempotencyKey"] = IdempotencyKey;
            if (Currency != null) o["currency"] = Currency;
            if (Amount != null) o["amount"] = (object)Amount;
            if (Name != null) o["name"] = Name;
            if (CampaignId != null) o["campaignId"] = CampaignId;
            if (Threshold != null) o["threshold"] = (object)Threshold;
            if (Spent != null) o["spent"] = (object)Spent;
            if (Budget != null) o["budget"] = (object)Budget;
            if (At != null) o["at"] = (object)At;
            return o;
        }
    }

    public sealed partial class Notification
    {
        public const string TypeMissionCompleted = "mission.completed";
        public const string TypeRewardGranted = "reward.granted";
        public const string TypeBalanceChanged = "balance.changed";
        public const string TypeBudgetAlert = "budget.alert";

        public string Id { get; set; }
        public string Type { get; set; }
        public string AppId { get; set; }
        public string UserId { get; set; }
        public long CreatedAt { get; set; }
        /// <summary>The progress as GET /v1/missions/:id shows it right after the completion</summary>
        public NotificationData Data { get; set; }

        /// <summary>Reads a value of the JSON reader (null gives null).</summary>
        public static Notification FromJson(object json)
        {
            if (json == null) return null;
            var o = Json.AsObject(json, "Notification");
            var r = new Notification();
            r.Id = Json.ToStr(Json.Get(o, "id"));
            r.Type = Json.ToStr(Json.Get(o, "type"));
            r.AppId = Json.ToStr(Json.Get(o, "appId"));
            r.UserId = Json.ToStr(Json.Get(o, "userId"));
            r.CreatedAt = Json.ToLong(Json.Get(o, "createdAt"));
            r.Data = NotificationData.FromJson(Json.Get(o, "data"));
            return r;
        }

        /// <summary>The JSON object (for Json.Write).</summary>
        public Dictionary<string, object> ToJson()
        {
            var o = new Dictionary<string, object>();
            o["id"] = Id;
            o["type"] = Type;
            o["appId"] = AppId;
            o["userId"] = UserId;
            o["createdAt"] = (object)CreatedAt;
            o["data"] = (Data == null ? null : Data.ToJson());
            return o;
        }
    }

    /// <summary>Query parameters (every one optional).</summary>
    public sealed partial class ListMissionsParams
    {
        /// <summary>Restrict to one campaign</summary>
        public string CampaignId { get; set; }
        /// <summary>Effective status; default all</summary>
        public string Status { get; set; }
        /// <summary>Page size</summary>
        public long? Limit { get; set; }
        /// <summary>nextCursor of the previous page</summary>
        public string Cursor { get; set; }
        /// <summary>Also list missions that can no longer progress</summary>
        public string Include { get; set; }

        /// <summary>The parameters that are set, as query-string pairs.</summary>
        public List<KeyValuePair<string, string>> ToQuery()
        {
            var q = new List<KeyValuePair<string, string>>();
            if (CampaignId != null) q.Add(new KeyValuePair<string, string>("campaignId", CampaignId));
            if (Status != null) q.Add(new KeyValuePair<string, string>("status", Status));
            if (Limit != null) q.Add(new KeyValuePair<string, string>("limit", Json.QueryValue(Limit)));
            if (Cursor != null) q.Add(new KeyValuePair<string, string>("cursor", Cursor));
            if (Include != null) q.Add(new KeyValuePair<string, string>("include", Include));
            return q;
        }
    }

    /// <summary>Query parameters (every one optional).</summary>
    public sealed partial class BalanceParams
    {
        /// <summary>One currency code</summary>
        public string Currency { get; set; }

        /// <summary>The parameters that are set, as query-string pairs.</summary>
        public List<KeyValuePair<string, string>> ToQuery()
        {
            var q = new List<KeyValuePair<string, string>>();
            if (Currency != null) q.Add(new KeyValuePair<string, string>("currency", Currency));
            return q;
        }
    }

    /// <summary>Query parameters (every one optional).</summary>
    public sealed partial class ListCampaignsParams
    {
        /// <summary>Also list ended campaigns</summary>
        public string Include { get; set; }

        /// <summary>The parameters that are set, as query-string pairs.</summary>
        public List<KeyValuePair<string, string>> ToQuery()
        {
            var q = new List<KeyValuePair<string, string>>();
            if (Include != null) q.Add(new KeyValuePair<string, string>("include", Include));
            return q;
        }
    }

    /// <summary>Query parameters (every one optional).</summary>
    public sealed partial class CampaignParams
    {
        /// <summary>Add the campaign’s missions</summary>
        public string Include { get; set; }

        /// <summary>The parameters that are set, as query-string pairs.</summary>
        public List<KeyValuePair<string, string>> ToQuery()
        {
            var q = new List<KeyValuePair<string, string>>();
            if (Include != null) q.Add(new KeyValuePair<string, string>("include", Include));
            return q;
        }
    }

    /// <summary>Query parameters (every one optional).</summary>
    public sealed partial class RecommendationsParams
    {
        /// <summary>How many missions at most</summary>
        public long? Limit { get; set; }

        /// <summary>The parameters that are set, as query-string pairs.</summary>
        public List<KeyValuePair<string, string>> ToQuery()
        {
            var q = new List<KeyValuePair<string, string>>();
            if (Limit != null) q.Add(new KeyValuePair<string, string>("limit", Json.QueryValue(Limit)));
            return q;
        }
    }
}
