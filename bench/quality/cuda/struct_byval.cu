// A particle record passed by value to a device function that advances it.
#include "prelude.h"

struct Particle {
  float x, y, vx, vy;
  int alive;
};

static __device__ Particle step(Particle p, float dt, float g) {
  if (p.alive) {
    p.vy -= g * dt;
    p.x += p.vx * dt;
    p.y += p.vy * dt;
    if (p.y < 0.0f) {
      p.y = 0.0f;
      p.alive = 0;
    }
  }
  return p;
}

extern "C" __global__ void struct_byval(Particle *ps, float dt, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i < n)
    ps[i] = step(ps[i], dt, 9.81f);
}
