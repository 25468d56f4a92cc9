// Pairwise spring forces against a few anchor points, then an Euler step.
#include "prelude.h"

struct Vec2 {
  float x, y;
};

static __device__ Vec2 sub(Vec2 a, Vec2 b) { return Vec2{a.x - b.x, a.y - b.y}; }
static __device__ Vec2 scale(Vec2 a, float s) { return Vec2{a.x * s, a.y * s}; }
static __device__ Vec2 add(Vec2 a, Vec2 b) { return Vec2{a.x + b.x, a.y + b.y}; }

extern "C" __global__ void particles(Vec2 *pos, Vec2 *vel, const Vec2 *anchors, float k, float dt, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  Vec2 p = pos[i];
  Vec2 f = {0.0f, 0.0f};
  for (int a = 0; a < 4; ++a)
    f = add(f, scale(sub(anchors[a], p), k));
  Vec2 v = add(vel[i], scale(f, dt));
  vel[i] = v;
  pos[i] = add(p, scale(v, dt));
}
