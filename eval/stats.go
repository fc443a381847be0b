package eval

import "math"

// Wilson returns the Wilson score interval of successes out of n trials at
// normal quantile z (1.96 for 95%). With n = 0 it is [0, 1].
func Wilson(successes, n int, z float64) (lower, upper float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(successes) / float64(n)
	nf := float64(n)
	z2 := z * z
	center := p + z2/(2*nf)
	spread := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	den := 1 + z2/nf
	return max(0, (center-spread)/den), min(1, (center+spread)/den)
}

// quantile returns z such that a standard normal variable lies in [-z, z]
// with probability level (1.96 for 0.95).
func quantile(level float64) float64 { return math.Sqrt2 * math.Erfinv(level) }

// wilsonCC returns the Wilson score interval of successes out of n trials
// with continuity correction (Newcombe's method 4) at normal quantile z: the
// proportions p whose score test, with |x/n - p| reduced by 1/(2n), does not
// reject at z. It is wider than [Wilson] by about 1/(2n) on each side,
// and its lower (upper) bound is 0 (1) at 0 (n) successes. n must be
// positive.
func wilsonCC(successes, n int, z float64) (lower, upper float64) {
	p, nf, z2 := float64(successes)/float64(n), float64(n), z*z
	lower, upper = 0, 1
	if successes > 0 {
		lower = (2*nf*p + z2 - 1 - z*math.Sqrt(z2-2-1/nf+4*p*(nf*(1-p)+1))) / (2 * (nf + z2))
	}
	if successes < n {
		upper = (2*nf*p + z2 + 1 + z*math.Sqrt(z2+2-1/nf+4*p*(nf*(1-p)-1))) / (2 * (nf + z2))
	}
	return max(0, lower), min(1, upper)
}

// newcombe returns Newcombe's hybrid score interval with continuity
// correction (his method 11) for p1 - scale*p2, where p1 = x1/n1 and
// p2 = x2/n2, at normal quantile z: the continuity-corrected Wilson
// intervals [l1, u1] and [l2, u2] of the two proportions ([wilsonCC]) are
// combined as
//
//	low  = d - sqrt((p1-l1)² + scale²(u2-p2)²)
//	high = d + sqrt((u1-p1)² + scale²(p2-l2)²)
//
// with d = p1 - scale*p2. With scale 1 it is the interval of the
// difference of two proportions. n1 and n2 must be positive.
func newcombe(x1, n1, x2, n2 int, scale, z float64) (low, high float64) {
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	l1, u1 := wilsonCC(x1, n1, z)
	l2, u2 := wilsonCC(x2, n2, z)
	d := p1 - scale*p2
	low = d - math.Hypot(p1-l1, scale*(u2-p2))
	high = d + math.Hypot(u1-p1, scale*(p2-l2))
	return low, high
}
