// A small JSON reader and writer (RFC 8259), so the SDK needs nothing outside
// the base class library. Values: Dictionary<string, object> (objects, key
// order kept), List<object> (arrays), string, long (integers that fit),
// double (other numbers), bool, null.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Questline
{
    /// <summary>Thrown by Json.Parse for text that is not JSON, and by the readers for a value of the wrong kind.</summary>
    public sealed class JsonFormatException : FormatException
    {
        public JsonFormatException(string message) : base(message) { }
    }

    /// <summary>JSON text to values and back; the conversions the generated models use.</summary>
    public static class Json
    {
        private const int MaxDepth = 256;

        /// <summary>Parses one JSON text (whitespace around it allowed, nothing else).</summary>
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            var p = new Parser(text);
            p.SkipSpace();
            var value = p.Value(0);
            p.SkipSpace();
            if (p.Pos != text.Length) throw p.Error("Unexpected text after the JSON value");
            return value;
        }

        /// <summary>Writes a value as compact JSON (non-ASCII kept as is; control characters, quotes and backslashes escaped).</summary>
        public static string Write(object value)
        {
            var sb = new StringBuilder();
            WriteValue(sb, value, 0);
            return sb.ToString();
        }

        private sealed class Parser
        {
            private readonly string s;
            public int Pos;

            public Parser(string text)
            {
                s = text;
            }

            public JsonFormatException Error(string message)
            {
                return new JsonFormatException(message + " at offset " + Pos);
            }

            public void SkipSpace()
            {
                while (Pos < s.Length)
                {
                    var c = s[Pos];
                    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
                    Pos++;
                }
            }

            public object Value(int depth)
            {
                if (depth > MaxDepth) throw Error("JSON nested too deeply");
                if (Pos >= s.Length) throw Error("Unexpected end of JSON");
                var c = s[Pos];
                switch (c)
                {
                    case '{': return Obj(depth);
                    case '[': return Arr(depth);
                    case '"': return Str();
                    case 't': Literal("true"); return true;
                    case 'f': Literal("false"); return false;
                    case 'n': Literal("null"); return null;
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return Number();
                        throw Error("Unexpected character '" + c + "'");
                }
            }

            private void Literal(string word)
            {
                if (string.CompareOrdinal(s, Pos, word, 0, word.Length) != 0) throw Error("Invalid literal");
                Pos += word.Length;
            }

            private Dictionary<string, object> Obj(int depth)
            {
                var o = new Dictionary<string, object>();
                Pos++;
                SkipSpace();
                if (Pos < s.Length && s[Pos] == '}')
                {
                    Pos++;
                    return o;
                }
                while (true)
                {
                    SkipSpace();
                    if (Pos >= s.Length || s[Pos] != '"') throw Error("Expected a property name");
                    var key = Str();
                    SkipSpace();
                    if (Pos >= s.Length || s[Pos] != ':') throw Error("Expected ':'");
                    Pos++;
                    SkipSpace();
                    o[key] = Value(depth + 1);
                    SkipSpace();
                    if (Pos >= s.Length) throw Error("Unexpected end of JSON in an object");
                    if (s[Pos] == ',') { Pos++; continue; }
                    if (s[Pos] == '}') { Pos++; return o; }
                    throw Error("Expected ',' or '}'");
                }
            }

            private List<object> Arr(int depth)
            {
                var a = new List<object>();
                Pos++;
                SkipSpace();
                if (Pos < s.Length && s[Pos] == ']')
                {
                    Pos++;
                    return a;
                }
                while (true)
                {
                    SkipSpace();
                    a.Add(Value(depth + 1));
                    SkipSpace();
                    if (Pos >= s.Length) throw Error("Unexpected end of JSON in an array");
                    if (s[Pos] == ',') { Pos++; continue; }
                    if (s[Pos] == ']') { Pos++; return a; }
                    throw Error("Expected ',' or ']'");
                }
            }

            private string Str()
            {
                Pos++; // opening quote
                StringBuilder sb = null;
                var start = Pos;
                while (true)
                {
                    if (Pos >= s.Length) throw Error("Unterminated string");
                    var c = s[Pos];
                    if (c == '"')
                    {
                        string result;
                        if (sb == null) result = s.Substring(start, Pos - start);
                        else result = sb.Append(s, start, Pos - start).ToString();
                        Pos++;
                        return result;
                    }
                    if (c < 0x20) throw Error("Control character in a string");
                    if (c != '\\')
                    {
                        Pos++;
                        continue;
                    }
                    if (sb == null) sb = new StringBuilder();
                    sb.Append(s, start, Pos - start);
                    Pos++;
                    if (Pos >= s.Length) throw Error("Unterminated escape");
                    var e = s[Pos++];
                    switch (e)
                    {
                        case '"': sb.Append('"'); break;
                        case '\\': sb.Append('\\'); break;
                        case '/': sb.Append('/'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'n': sb.Append('\n'); break;
                        case 'r': sb.Append('\r'); break;
                        case 't': sb.Append('\t'); break;
                        case 'u':
                            // \uXXXX: a UTF-16 code unit; a surrogate pair is two escapes and joins naturally.
                            if (Pos + 4 > s.Length) throw Error("Short \\u escape");
                            int code;
                            if (!int.TryParse(s.Substring(Pos, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code)) throw Error("Invalid \\u escape");
                            sb.Append((char)code);
                            Pos += 4;
                            break;
                        default: throw Error("Invalid escape '\\" + e + "'");
                    }
                    start = Pos;
                }
            }

            private object Number()
            {
                var start = Pos;
                if (s[Pos] == '-') Pos++;
                if (Pos >= s.Length) throw Error("Invalid number");
                if (s[Pos] == '0') Pos++;
                else if (s[Pos] >= '1' && s[Pos] <= '9') Digits();
                else throw Error("Invalid number");
                var integral = true;
                if (Pos < s.Length && s[Pos] == '.')
                {
                    integral = false;
                    Pos++;
                    if (Pos >= s.Length || s[Pos] < '0' || s[Pos] > '9') throw Error("Invalid number");
                    Digits();
                }
                if (Pos < s.Length && (s[Pos] == 'e' || s[Pos] == 'E'))
                {
                    integral = false;
                    Pos++;
                    if (Pos < s.Length && (s[Pos] == '+' || s[Pos] == '-')) Pos++;
                    if (Pos >= s.Length || s[Pos] < '0' || s[Pos] > '9') throw Error("Invalid number");
                    Digits();
                }
                var text = s.Substring(start, Pos - start);
                long l;
                if (integral && long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out l)) return l;
                return double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
            }

            private void Digits()
            {
                while (Pos < s.Length && s[Pos] >= '0' && s[Pos] <= '9') Pos++;
            }
        }

        private static void WriteValue(StringBuilder sb, object value, int depth)
        {
            if (depth > MaxDepth) throw new JsonFormatException("Value nested too deeply to write");
            if (value == null) { sb.Append("null"); return; }
            var str = value as string;
            if (str != null) { WriteString(sb, str); return; }
            if (value is bool) { sb.Append((bool)value ? "true" : "false"); return; }
            if (value is double || value is float)
            {
                var d = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(d) || double.IsInfinity(d)) throw new JsonFormatException("NaN and infinities have no JSON form");
                sb.Append(d.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            if (value is decimal) { sb.Append(((decimal)value).ToString(CultureInfo.InvariantCulture)); return; }
            if (value is long || value is int || value is short || value is sbyte || value is byte || value is ushort || value is uint || value is ulong)
            {
                sb.Append(Convert.ToString(value, CultureInfo.InvariantCulture));
                return;
            }
            if (value is char) { WriteString(sb, value.ToString()); return; }
            var dict = value as IDictionary;
            if (dict != null)
            {
                sb.Append('{');
                var first = true;
                foreach (DictionaryEntry kv in dict)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    WriteString(sb, Convert.ToString(kv.Key, CultureInfo.InvariantCulture));
                    sb.Append(':');
                    WriteValue(sb, kv.Value, depth + 1);
                }
                sb.Append('}');
                return;
            }
            var list = value as IEnumerable;
            if (list != null)
            {
                sb.Append('[');
                var first = true;
                foreach (var item in list)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    WriteValue(sb, item, depth + 1);
                }
                sb.Append(']');
                return;
            }
            throw new JsonFormatException("No JSON form for a " + value.GetType().Name + " (call its ToJson())");
        }

        private static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (var c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    case '\b': sb.Append("\\b"); break;
                    case '\f': sb.Append("\\f"); break;
                    default:
                        // Control characters, and the line separators JavaScript source cannot hold raw.
                        if (c < 0x20 || c == '\u2028' || c == '\u2029') sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }

        // Conversions used by the generated models: lenient on absence (null, 0, false), strict on kind.

        public static Dictionary<string, object> AsObject(object json, string what)
        {
            var o = json as Dictionary<string, object>;
            if (o == null) throw new JsonFormatException("Expected a JSON object for " + what);
            return o;
        }

        public static object Get(Dictionary<string, object> o, string key)
        {
            object v;
            return o.TryGetValue(key, out v) ? v : null;
        }

        public static string ToStr(object v)
        {
            if (v == null) return null;
            var s = v as string;
            if (s == null) throw new JsonFormatException("Expected a JSON string");
            return s;
        }

        public static long ToLong(object v)
        {
            var n = ToNullableLong(v);
            return n.HasValue ? n.Value : 0;
        }

        public static long? ToNullableLong(object v)
        {
            if (v == null) return null;
            if (v is long) return (long)v;
            if (v is double)
            {
                var d = (double)v;
                if (d == Math.Floor(d) && d >= long.MinValue && d <= long.MaxValue) return (long)d;
                throw new JsonFormatException("Expected an integer, got " + d.ToString("R", CultureInfo.InvariantCulture));
            }
            if (v is int) return (int)v;
            throw new JsonFormatException("Expected a JSON number");
        }

        public static double ToDouble(object v)
        {
            var n = ToNullableDouble(v);
            return n.HasValue ? n.Value : 0;
        }

        public static double? ToNullableDouble(object v)
        {
            if (v == null) return null;
            if (v is double) return (double)v;
            if (v is long) return (long)v;
            if (v is int) return (int)v;
            throw new JsonFormatException("Expected a JSON number");
        }

        public static bool ToBool(object v)
        {
            var b = ToNullableBool(v);
            return b.HasValue && b.Value;
        }

        public static bool? ToNullableBool(object v)
        {
            if (v == null) return null;
            if (v is bool) return (bool)v;
            throw new JsonFormatException("Expected true or false");
        }

        public static List<T> ToList<T>(object v, Func<object, T> read)
        {
            if (v == null) return null;
            var a = v as List<object>;
            if (a == null) throw new JsonFormatException("Expected a JSON array");
            var r = new List<T>(a.Count);
            foreach (var item in a) r.Add(read(item));
            return r;
        }

        public static Dictionary<string, T> ToMap<T>(object v, Func<object, T> read)
        {
            if (v == null) return null;
            var o = AsObject(v, "a map");
            var r = new Dictionary<string, T>(o.Count);
            foreach (var kv in o) r[kv.Key] = read(kv.Value);
            return r;
        }

        public static List<object> FromList<T>(List<T> list, Func<T, object> write)
        {
            if (list == null) return null;
            var r = new List<object>(list.Count);
            foreach (var item in list) r.Add(write(item));
            return r;
        }

        public static Dictionary<string, object> FromMap<T>(Dictionary<string, T> map, Func<T, object> write)
        {
            if (map == null) return null;
            var r = new Dictionary<string, object>(map.Count);
            foreach (var kv in map) r[kv.Key] = write(kv.Value);
            return r;
        }

        /// <summary>The properties of <paramref name="o"/> not in <paramref name="known"/> (null when none).</summary>
        public static Dictionary<string, object> Rest(Dictionary<string, object> o, string[] known)
        {
            Dictionary<string, object> r = null;
            foreach (var kv in o)
            {
                if (Array.IndexOf(known, kv.Key) >= 0) continue;
                if (r == null) r = new Dictionary<string, object>();
                r[kv.Key] = kv.Value;
            }
            return r;
        }

        public static string QueryValue(object v)
        {
            if (v is bool) return (bool)v ? "true" : "false";
            return Convert.ToString(v, CultureInfo.InvariantCulture);
        }
    }
}
