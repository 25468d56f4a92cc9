// Seven-point 3D stencil; one thread per interior point.
#include "prelude.h"

struct Dims {
  int nx, ny, nz;
};

static __device__ int at(Dims d, int x, int y, int z) { return (z * d.ny + y) * d.nx + x; }

extern "C" __global__ void stencil3d(const float *in, float *out, Dims d, float alpha) {
  int x = CTA_X * NTID_X + TID_X;
  int y = CTA_Y * NTID_Y + TID_Y;
  int z = CTA_Z * NTID_Z + TID_Z;
  if (x < 1 || y < 1 || z < 1 || x >= d.nx - 1 || y >= d.ny - 1 || z >= d.nz - 1)
    return;
  float c = in[at(d, x, y, z)];
  float s = in[at(d, x - 1, y, z)] + in[at(d, x + 1, y, z)] + in[at(d, x, y - 1, z)] +
            in[at(d, x, y + 1, z)] + in[at(d, x, y, z - 1)] + in[at(d, x, y, z + 1)];
  out[at(d, x, y, z)] = c + alpha * (s - 6.0f * c);
}
