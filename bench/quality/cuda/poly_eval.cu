// Horner evaluation of a degree-4 polynomial whose coefficients sit in a
// small local array filled from a parameter.
#include "prelude.h"

extern "C" __global__ void poly_eval(const float *x, float *y, const float *coef, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  float c[5];
  for (int k = 0; k < 5; ++k)
    c[k] = coef[k];
  float xv = x[i];
  float acc = c[4];
  for (int k = 3; k >= 0; --k)
    acc = acc * xv + c[k];
  y[i] = acc;
}
