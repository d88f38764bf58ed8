package stockroom

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Units is an exact decimal quantity with six digits after the point, kept as
// an integer count of millionths. Quantities, weights and prices are Units,
// never floating point, so sums are exact.
type Units int64

// UnitScale is the number of Units in one whole unit.
const UnitScale = 1_000_000

// MaxUnits bounds quantities so that sums of many of them cannot overflow:
// one trillion whole units.
const MaxUnits Units = 1_000_000_000_000 * UnitScale

// Errors of ParseUnits, written to follow a field name in validation details.
var (
	errUnitsSyntax    = errors.New("must be a decimal number")
	errUnitsPrecision = errors.New("must have at most 6 digits after the decimal point")
	errUnitsRange     = errors.New("is out of range")
)

// jsonNumber is the grammar of a JSON number (RFC 8259 §6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// ParseUnits reads a decimal number exactly, as written in JSON (exponents
// allowed). More than six digits after the point, or a magnitude beyond
// MaxUnits, is an error; the value is never rounded.
func ParseUnits(s string) (Units, error) {
	if len(s) > 64 || !jsonNumber.MatchString(s) {
		return 0, errUnitsSyntax
	}
	if strings.ContainsAny(s, "eE") {
		// An exponent could ask big.Rat for an enormous power of ten.
		_, exp, _ := strings.Cut(strings.ToLower(s), "e")
		if n, err := strconv.Atoi(exp); err != nil || n > 30 || n < -30 {
			return 0, errUnitsRange
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, errUnitsSyntax
	}
	r.Mul(r, big.NewRat(UnitScale, 1))
	if !r.IsInt() {
		return 0, errUnitsPrecision
	}
	n := r.Num()
	if !n.IsInt64() || n.Int64() > int64(MaxUnits) || n.Int64() < -int64(MaxUnits) {
		return 0, errUnitsRange
	}
	return Units(n.Int64()), nil
}

// String writes the value without needless trailing zeros: 500, 12.5, 0.000001.
func (u Units) String() string {
	if u == math.MinInt64 {
		return "-9223372036854.775808"
	}
	neg := u < 0
	if neg {
		u = -u
	}
	whole, frac := int64(u)/UnitScale, int64(u)%UnitScale
	s := strconv.FormatInt(whole, 10)
	if frac != 0 {
		f := strconv.FormatInt(frac+UnitScale, 10)[1:] // zero-padded to 6 digits
		s += "." + strings.TrimRight(f, "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// MarshalJSON writes the value as a JSON number.
func (u Units) MarshalJSON() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalJSON reads a JSON number exactly. Strings and other types are
// refused.
func (u *Units) UnmarshalJSON(b []byte) error {
	v, err := ParseUnits(string(b))
	if err != nil {
		return err
	}
	*u = v
	return nil
}
