// Normalize 3-vectors through helpers that take and return a struct.
#include "prelude.h"

struct float3_ {
  float x, y, z;
};

static __device__ float dot3(float3_ a, float3_ b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static __device__ float3_ mul3(float3_ a, float s) { return float3_{a.x * s, a.y * s, a.z * s}; }

extern "C" __global__ void vec3_normalize(float3_ *v, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  float3_ a = v[i];
  float len2 = dot3(a, a);
  if (len2 > 0.0f)
    v[i] = mul3(a, 1.0f / sqrt_f32(len2));
}
