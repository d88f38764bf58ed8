package stockroom

import (
	"math"
	"math/big"
	"time"
)

// Exact sums for reports. A lot's value is units × price, a product of two
// 6-decimal quantities with 12 decimals, and a sum of many such products
// outgrows int64; so both are kept as big integers of millionths of
// millionths and rounded once, half away from zero, when a row is written.

// Valuation sums the value of lots.
type Valuation struct {
	units int64   // millionths
	value big.Int // millionths of units × millionths of price
}

// Add counts a lot of units at price.
func (v *Valuation) Add(units, price Units) {
	v.units += units.Micros()
	var p big.Int
	p.Mul(big.NewInt(units.Micros()), big.NewInt(price.Micros()))
	v.value.Add(&v.value, &p)
}

// Units is the units counted.
func (v *Valuation) Units() Units { return FromMicros(v.units) }

// TotalValue is the value counted, rounded to 6 decimals half away from
// zero.
func (v *Valuation) TotalValue() Units { return FromMicros(roundDiv(&v.value, big.NewInt(1_000_000))) }

// UnitCost is the exact total value divided by the units, rounded to 6
// decimals half away from zero; 0 without units.
func (v *Valuation) UnitCost() Units {
	if v.units == 0 {
		return Units{}
	}
	return FromMicros(roundDiv(&v.value, big.NewInt(v.units)))
}

// UnitDays sums units held over spans of time.
type UnitDays struct {
	sum big.Int // millionths of units × microseconds
}

// Add counts units held from one time to another.
func (u *UnitDays) Add(units Units, from, to time.Time) {
	var p big.Int
	p.Mul(big.NewInt(units.Micros()), big.NewInt(to.UnixMicro()-from.UnixMicro()))
	u.sum.Add(&u.sum, &p)
}

// Sub takes v's unit-days from u's.
func (u *UnitDays) Sub(v *UnitDays) { u.sum.Sub(&u.sum, &v.sum) }

// Total is the unit-days counted (a unit held 24 hours is one), rounded to
// 6 decimals half away from zero.
func (u *UnitDays) Total() Units {
	return FromMicros(roundDiv(&u.sum, big.NewInt(int64(24*time.Hour/time.Microsecond))))
}

// roundDiv is n / d rounded half away from zero (d > 0), as an int64,
// saturated: a figure past what Units holds (about 9.2 × 10^12) is written
// as the largest it holds rather than wrapped.
func roundDiv(n, d *big.Int) int64 {
	var q, r big.Int
	q.QuoRem(n, d, &r)
	r.Abs(&r)
	r.Lsh(&r, 1)
	if r.Cmp(d) >= 0 {
		if n.Sign() < 0 {
			q.Sub(&q, big.NewInt(1))
		} else {
			q.Add(&q, big.NewInt(1))
		}
	}
	switch {
	case q.IsInt64():
		return q.Int64()
	case q.Sign() > 0:
		return math.MaxInt64
	}
	return math.MinInt64
}
