// A Server-Sent Events parser (WHATWG "event stream interpretation") over
// decoded text: chunks may split anywhere (even between CR and LF); lines end
// in LF, CR or CRLF; comment lines are reported apart; data lines join with LF.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Questline
{
    public sealed class SseMessage
    {
        /// <summary>The last event id seen so far (persists across messages, as in EventSource).</summary>
        public string Id { get; set; }
        public string Event { get; set; }
        public string Data { get; set; }
        public int? Retry { get; set; }
    }

    public sealed class SseParser
    {
        private readonly Action<SseMessage> onMessage;
        private readonly Action<string> onComment;
        private readonly StringBuilder buffer = new StringBuilder();
        private bool skipLf;
        private bool first = true;
        private List<string> data = new List<string>();
        private string evt = "";
        private int? retry;

        public SseParser(Action<SseMessage> onMessage, Action<string> onComment = null)
        {
            this.onMessage = onMessage;
            this.onComment = onComment;
        }

        public string LastEventId { get; private set; }

        /// <summary>Feeds decoded text.</summary>
        public void Feed(string text)
        {
            if (string.IsNullOrEmpty(text)) return;
            if (first)
            {
                first = false;
                if (text[0] == '\uFEFF') text = text.Substring(1);
            }
            if (skipLf && text.Length > 0 && text[0] == '\n') text = text.Substring(1);
            skipLf = false;
            buffer.Append(text);
            var s = buffer.ToString();
            var start = 0;
            for (var i = 0; i < s.Length; i++)
            {
                var c = s[i];
                if (c != '\n' && c != '\r') continue;
                Line(s.Substring(start, i - start));
                if (c == '\r')
                {
                    if (i + 1 == s.Length) skipLf = true;
                    else if (s[i + 1] == '\n') i++;
                }
                start = i + 1;
            }
            buffer.Clear();
            buffer.Append(s, start, s.Length - start);
        }

        /// <summary>Forgets a partial message (after a reconnect). Keeps the last event id.</summary>
        public void Reset()
        {
            buffer.Clear();
            skipLf = false;
            first = true;
            data = new List<string>();
            evt = "";
            retry = null;
        }

        private void Dispatch()
        {
            if (data.Count > 0) onMessage(new SseMessage { Id = LastEventId, Event = evt.Length > 0 ? evt : "message", Data = string.Join("\n", data.ToArray()), Retry = retry });
            data = new List<string>();
            evt = "";
            retry = null;
        }

        private void Line(string text)
        {
            if (text.Length == 0)
            {
                Dispatch();
                return;
            }
            if (text[0] == ':')
            {
                if (onComment != null) onComment(text.Length > 1 && text[1] == ' ' ? text.Substring(2) : text.Substring(1));
                return;
            }
            var colon = text.IndexOf(':');
            var field = colon == -1 ? text : text.Substring(0, colon);
            var value = colon == -1 ? "" : text.Substring(colon + 1);
            if (value.Length > 0 && value[0] == ' ') value = value.Substring(1);
            switch (field)
            {
                case "data": data.Add(value); break;
                case "event": evt = value; break;
                case "id": if (value.IndexOf('\0') < 0) LastEventId = value; break;
                case "retry":
                    int r;
                    if (value.Length > 0 && IsDigits(value) && int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out r)) retry = r;
                    break;
            }
        }

        private static bool IsDigits(string s)
        {
            foreach (var c in s) if (c < '0' || c > '9') return false;
            return true;
        }
    }
}
