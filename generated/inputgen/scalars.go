package inputgen

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// runes are drawn from a set that exercises argv handling: dashes, '=',
// quotes, spaces, HTML characters, non-ASCII and a newline.
const strRunes = "abcxyzABCXYZ0129 -_=.:/\"'<>&\\{}[],é日\n"

// stringSamples look like other types or flags; a string flag must send
// them verbatim.
var stringSamples = []string{"012", "-5", "true", "null", "--help", "-h", "{}", "[1]", "a=b", "", " lead", "1e3"}

// patternSamples are tried against a pattern before random strings.
var patternSamples = []string{
	"latest", "c49541c747cb4d8aa3efb70ca5aba243", "abcDEF1234", "user:alice", "team:core",
	"24h", "7d", "2w", "2024-01-02T03:04:05Z", "v1.2.3", "main", "abc", "A", "1", "12345",
}

func (g *gen) str(v *view) string {
	minL, maxL := int64(0), int64(1<<30)
	if n, ok := intKw(v, "minLength"); ok {
		minL = max(n, 0)
	}
	if n, ok := intKw(v, "maxLength"); ok {
		maxL = max(n, 0)
	}
	if minL > 10000 {
		minL = 10000
	}
	fits := func(s string) bool {
		n := int64(utf8.RuneCountInString(s))
		return n >= minL && n <= maxL
	}
	if p, ok := v.kw("pattern"); ok {
		if ps, ok := p.(string); ok {
			if re := g.pattern(ps); re != nil {
				for _, s := range patternSamples {
					if re.MatchString(s) && fits(s) {
						return s
					}
				}
			}
		}
	}
	if f, ok := v.kw("format"); ok {
		if s := formatSample(f); s != "" && fits(s) {
			return s
		}
	}
	if g.r.IntN(4) == 0 {
		s := stringSamples[g.r.IntN(len(stringSamples))]
		if fits(s) {
			return s
		}
	}
	n := minL
	if maxL > minL {
		n += int64(g.r.IntN(int(min(maxL-minL, 12)) + 1))
	}
	runes := []rune(strRunes)
	var b strings.Builder
	for i := int64(0); i < n; i++ {
		b.WriteRune(runes[g.r.IntN(len(runes))])
	}
	return b.String()
}

func (g *gen) pattern(p string) *regexp.Regexp {
	if re, ok := g.patterns[p]; ok {
		return re
	}
	re, _ := regexp.Compile(p) // a pattern Go cannot compile is ignored
	g.patterns[p] = re
	return re
}

func formatSample(f any) string {
	switch f {
	case "date-time":
		return "2024-01-02T03:04:05Z"
	case "date":
		return "2024-01-02"
	case "time":
		return "03:04:05Z"
	case "uri", "url", "uri-reference":
		return "https://example.com/a?b=c"
	case "email":
		return "ops@example.com"
	case "uuid":
		return "123e4567-e89b-12d3-a456-426614174000"
	case "hostname":
		return "example.com"
	case "ipv4":
		return "192.0.2.1"
	}
	return ""
}

// integerSamples include values above 2^53 (not exact in float64).
var integerSamples = []int64{0, 1, 7, 42, -5, 1000, 9007199254740993, -9007199254740995, math.MaxInt64, math.MinInt64}

func (g *gen) integer(v *view) (any, error) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if f, ok := numKw(v, "minimum"); ok {
		lo = clampCeil(f, lo)
	}
	if f, ok := numKw(v, "exclusiveMinimum"); ok {
		lo = max(lo, clampFloor(f, lo)+1)
	}
	if f, ok := numKw(v, "maximum"); ok {
		hi = clampFloor(f, hi)
	}
	if f, ok := numKw(v, "exclusiveMaximum"); ok {
		hi = min(hi, clampCeil(f, hi)-1)
	}
	if lo > hi {
		return nil, ErrNoValue
	}
	var fit []int64
	for _, n := range integerSamples {
		if n >= lo && n <= hi {
			fit = append(fit, n)
		}
	}
	var n int64
	if len(fit) > 0 && g.r.IntN(3) > 0 {
		n = fit[g.r.IntN(len(fit))]
	} else {
		span := uint64(hi) - uint64(lo) // two's complement: exact for any lo <= hi
		if span == math.MaxUint64 {
			n = int64(g.r.Uint64())
		} else {
			n = int64(uint64(lo) + g.r.Uint64N(span+1))
		}
	}
	return json.Number(strconv.FormatInt(n, 10)), nil
}

func clampCeil(f float64, def int64) int64 {
	if f >= 9.2e18 || f <= -9.2e18 {
		return def
	}
	return int64(math.Ceil(f))
}

func clampFloor(f float64, def int64) int64 {
	if f >= 9.2e18 || f <= -9.2e18 {
		return def
	}
	return int64(math.Floor(f))
}

// numberSamples are JSON number texts that must travel exactly as written.
var numberSamples = []string{"0", "2.50", "-1.5e3", "1E-7", "0.1", "3", "-0.0", "12345678901234567890123", "9007199254740993", "1.000000000000000000001"}

func (g *gen) number(v *view) (any, error) {
	lo, hi := math.Inf(-1), math.Inf(1)
	loEx, hiEx := false, false
	if f, ok := numKw(v, "minimum"); ok {
		lo = f
	}
	if f, ok := numKw(v, "exclusiveMinimum"); ok && f >= lo {
		lo, loEx = f, true
	}
	if f, ok := numKw(v, "maximum"); ok {
		hi = f
	}
	if f, ok := numKw(v, "exclusiveMaximum"); ok && f <= hi {
		hi, hiEx = f, true
	}
	in := func(s string) bool {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return false
		}
		return (f > lo || !loEx && f == lo) && (f < hi || !hiEx && f == hi)
	}
	for _, i := range g.r.Perm(len(numberSamples)) {
		if in(numberSamples[i]) {
			return json.Number(numberSamples[i]), nil
		}
	}
	for _, s := range []string{strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat((lo+hi)/2, 'g', -1, 64)} {
		if in(s) && isJSONNumber(s) {
			return json.Number(s), nil
		}
	}
	return nil, ErrNoValue
}

// anyJSON is a value for an untyped position.
func (g *gen) anyJSON() any {
	switch g.r.IntN(5) {
	case 0:
		return map[string]any{"k": g.anyScalar(), "n": json.Number("1.50")}
	case 1:
		return []any{g.anyScalar(), json.Number("2")}
	}
	return g.anyScalar()
}

func (g *gen) anyScalar() any {
	switch g.r.IntN(4) {
	case 0:
		return json.Number(numberSamples[g.r.IntN(len(numberSamples))])
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return stringSamples[g.r.IntN(len(stringSamples))]
	}
	return "text " + strconv.Itoa(g.r.IntN(100))
}

func numKw(v *view, name string) (float64, bool) {
	x, ok := v.kw(name)
	if !ok {
		return 0, false
	}
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func intKw(v *view, name string) (int64, bool) {
	f, ok := numKw(v, name)
	if !ok || f > 1e9 || f < -1e9 {
		return 0, false
	}
	return int64(f), true
}

// compact encodes v as compact JSON without HTML escaping.
func compact(v any) []byte {
	return jsontext.MarshalOrNull(v)
}
