// Per-thread mean and variance of a short series (Welford's update), with
// the running state kept in a struct.
#include "prelude.h"

struct Stats {
  int count;
  float mean, m2;
};

static __device__ void push(Stats *s, float x) {
  s->count += 1;
  float d = x - s->mean;
  s->mean += d / (float)s->count;
  s->m2 += d * (x - s->mean);
}

extern "C" __global__ void running_stats(const float *series, float *mean, float *var, int len) {
  int t = CTA_X * NTID_X + TID_X;
  Stats s = {0, 0.0f, 0.0f};
  for (int j = 0; j < (len & 15); ++j)
    push(&s, series[t * 16 + j]);
  mean[t] = s.mean;
  var[t] = s.count > 1 ? s.m2 / (float)(s.count - 1) : 0.0f;
}
