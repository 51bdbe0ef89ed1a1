// Black-Scholes European option pricing (AMD APP SDK BlackScholes): transcendental-heavy
// (exp, log, sqrt) with the Abramowitz-Stegun polynomial for the normal CDF.
static float cnd(float d) {
  const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = 0.39894228040143267794f * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - c : c;
}

__kernel void blackscholes(__global const float* spot, __global const float* strike, __global const float* years,
                           __global float* call, __global float* put, uint n, float rate, float vol) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float s = spot[i], x = strike[i], t = years[i];
  float sqrt_t = sqrt(t);
  float d1 = (log(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
  float d2 = d1 - vol * sqrt_t;
  float discount = x * exp(-rate * t);
  float n1 = cnd(d1), n2 = cnd(d2);
  call[i] = s * n1 - discount * n2;
  put[i] = discount * (1.0f - n2) - s * (1.0f - n1);
}
