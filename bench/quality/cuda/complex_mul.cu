// Element-wise complex multiply-accumulate with a small complex type.
#include "prelude.h"

struct cplx {
  float re, im;
};

static __device__ cplx cmul(cplx a, cplx b) {
  cplx r;
  r.re = a.re * b.re - a.im * b.im;
  r.im = a.re * b.im + a.im * b.re;
  return r;
}

static __device__ cplx cadd(cplx a, cplx b) {
  cplx r = {a.re + b.re, a.im + b.im};
  return r;
}

extern "C" __global__ void complex_mul(const cplx *a, const cplx *b, cplx *acc, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i < n)
    acc[i] = cadd(acc[i], cmul(a[i], b[i]));
}
