// What a theme colour may be: a CSS colour and nothing else, since the
// console puts it into CSS (a campaign card's preview). Free text such as
// `red),url(https://…/hit)/*` would make a browser fetch that URL when an
// editor opens the campaign. Imports nothing server-side (the console uses it).

/** The CSS named colours (CSS Color 4), plus `transparent`. */
const NAMED_COLORS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue ' +
    'chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey ' +
    'darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray ' +
    'darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen ' +
    'fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
    'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen ' +
    'lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime ' +
    'limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue ' +
    'mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive ' +
    'olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum ' +
    'powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver ' +
    'skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white ' +
    'whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// One argument of a colour function: a number with an optional unit, or `none`.
const ARG = String.raw`(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?(?:%|deg|grad|rad|turn)?|none)`;
// rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() (and rgba/hsla) with three numbers and an optional alpha,
// separated by commas or spaces (alpha after `/` or a comma): numbers only, no nested function, no url().
const FUNCTION = new RegExp(String.raw`^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*${ARG}(?:\s*,\s*|\s+)${ARG}(?:\s*,\s*|\s+)${ARG}(?:\s*[,/]\s*${ARG})?\s*\)$`, 'i');

/** True for a CSS colour: hex, a colour function with numbers, or a named colour. */
export function isCssColor(value: string): boolean {
  return value.length <= 64 && (HEX.test(value) || FUNCTION.test(value) || NAMED_COLORS.has(value.toLowerCase()));
}

export const CSS_COLOR_MESSAGE = 'must be a CSS colour: #rgb, #rrggbb (or with alpha), rgb()/hsl()/oklch()… with numbers, or a named colour such as rebeccapurple';

/** A stored colour for CSS, or `fallback` when it is not one (a value stored before colours were checked). */
export function safeCssColor(value: unknown, fallback: string): string;
export function safeCssColor(value: unknown, fallback?: undefined): string | undefined;
export function safeCssColor(value: unknown, fallback?: string): string | undefined {
  return typeof value === 'string' && isCssColor(value.trim()) ? value.trim() : fallback;
}
