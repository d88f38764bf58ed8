package stockroom

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Units is an exact decimal quantity with six digits after the point:
// quantities, weights and prices, never floating point, so sums are exact.
// It keeps a count of millionths, which only FromMicros and Micros expose, so
// that a literal can never be taken for whole units by accident: write
// Whole(5), MustParseUnits("37.5") or ParseUnits(text). The zero value is 0.
type Units struct {
	micros int64
}

// UnitScale is the number of millionths in one whole unit.
const UnitScale = 1_000_000

// maxQuantity bounds one quantity in a request or a record, in millionths:
// one trillion whole units, so that sums of many of them cannot overflow.
const maxQuantity = 1_000_000_000_000 * UnitScale

// maxFigure bounds a figure that sums quantities (a lot, a stock level, a
// total over warehouses), in millionths. It leaves room below the integer's
// limit for one more quantity, so a sum that would pass it is found and
// refused before it can overflow.
const maxFigure = 8_000_000_000_000 * UnitScale

// Whole returns n whole units. n must lie within ±8,000,000,000,000.
func Whole(n int64) Units {
	if n > maxFigure/UnitScale || n < -maxFigure/UnitScale {
		panic(fmt.Sprintf("stockroom.Whole(%d): out of range", n))
	}
	return Units{n * UnitScale}
}

// FromMicros returns the quantity of n millionths of a unit. It is for
// storage and arithmetic on the raw count; everything else should use Whole
// or ParseUnits.
func FromMicros(n int64) Units { return Units{n} }

// Micros returns the quantity as a count of millionths of a unit.
func (u Units) Micros() int64 { return u.micros }

// Add returns u + v.
func (u Units) Add(v Units) Units { return Units{u.micros + v.micros} }

// Sub returns u − v.
func (u Units) Sub(v Units) Units { return Units{u.micros - v.micros} }

// Neg returns −u.
func (u Units) Neg() Units { return Units{-u.micros} }

// Cmp compares u and v: -1, 0 or +1 as u is less than, equal to or greater
// than v.
func (u Units) Cmp(v Units) int {
	switch {
	case u.micros < v.micros:
		return -1
	case u.micros > v.micros:
		return 1
	}
	return 0
}

// Sign returns -1, 0 or +1.
func (u Units) Sign() int { return u.Cmp(Units{}) }

// IsZero reports whether u is 0.
func (u Units) IsZero() bool { return u.micros == 0 }

// Less reports whether u < v.
func (u Units) Less(v Units) bool { return u.micros < v.micros }

// MinUnits returns the smaller of a and b.
func MinUnits(a, b Units) Units {
	if a.micros < b.micros {
		return a
	}
	return b
}

// IsFigure reports whether u may be kept as a stock figure: within the bound
// that sums of quantities must stay under (8,000,000,000,000 units either
// way).
func (u Units) IsFigure() bool { return u.micros <= maxFigure && u.micros >= -maxFigure }

// MaxFigure is the largest figure kept, as the text of refusals says it.
func MaxFigure() Units { return Units{maxFigure} }

// MaxQuantity is the largest quantity one request may carry: a trillion
// whole units.
func MaxQuantity() Units { return Units{maxQuantity} }

// Errors of ParseUnits, written to follow a field name in validation details.
var (
	errUnitsSyntax    = errors.New("must be a decimal number")
	errUnitsPrecision = errors.New("must have at most 6 digits after the decimal point")
	errUnitsRange     = errors.New("is out of range")
)

// jsonNumber is the grammar of a JSON number (RFC 8259 §6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// ParseUnits reads a decimal number exactly, as written in JSON (exponents
// allowed). More than six digits after the point, or a magnitude beyond the
// largest figure kept (MaxFigure), is an error; the value is never rounded.
// A request's quantities are held to MaxQuantity by their validation.
func ParseUnits(s string) (Units, error) {
	if len(s) > 64 || !jsonNumber.MatchString(s) {
		return Units{}, errUnitsSyntax
	}
	if strings.ContainsAny(s, "eE") {
		// An exponent could ask big.Rat for an enormous power of ten.
		_, exp, _ := strings.Cut(strings.ToLower(s), "e")
		if n, err := strconv.Atoi(exp); err != nil || n > 30 || n < -30 {
			return Units{}, errUnitsRange
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Units{}, errUnitsSyntax
	}
	r.Mul(r, big.NewRat(UnitScale, 1))
	if !r.IsInt() {
		return Units{}, errUnitsPrecision
	}
	n := r.Num()
	if !n.IsInt64() || n.Int64() > maxFigure || n.Int64() < -maxFigure {
		return Units{}, errUnitsRange
	}
	return Units{n.Int64()}, nil
}

// MustParseUnits is ParseUnits for constants: it panics on a bad value.
func MustParseUnits(s string) Units {
	u, err := ParseUnits(s)
	if err != nil {
		panic(fmt.Sprintf("stockroom.MustParseUnits(%q): %v", s, err))
	}
	return u
}

// String writes the value without needless trailing zeros: 500, 12.5,
// 0.000001.
func (u Units) String() string {
	n := u.micros
	neg := n < 0
	if neg {
		if n == -1<<63 {
			return "-9223372036854.775808"
		}
		n = -n
	}
	whole, frac := n/UnitScale, n%UnitScale
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

// Value stores the quantity as its count of millionths (database/sql).
func (u Units) Value() (driver.Value, error) { return u.micros, nil }

// Scan reads a stored count of millionths (database/sql). Sums may arrive
// as decimal text (PostgreSQL's SUM of BIGINT is NUMERIC); they must be
// whole counts.
func (u *Units) Scan(src any) error {
	switch v := src.(type) {
	case int64:
		u.micros = v
		return nil
	case nil:
		u.micros = 0
		return nil
	case []byte:
		return u.scanText(string(v))
	case string:
		return u.scanText(v)
	}
	return fmt.Errorf("stockroom.Units: cannot scan %T", src)
}

func (u *Units) scanText(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("stockroom.Units: cannot scan %q: %w", s, err)
	}
	u.micros = n
	return nil
}
