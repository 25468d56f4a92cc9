// prelude.h: the few CUDA declarations the quality kernels need, so they
// compile device-only with clang (--cuda-device-only -nocudainc
// -nocudalib) without the CUDA headers. Thread indices are macros over
// clang's NVPTX builtins (not functions: at -O0 a function would be a
// call in every kernel); the helpers below are the ones a kernel calls.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))

#define TID_X ((int)__nvvm_read_ptx_sreg_tid_x())
#define TID_Y ((int)__nvvm_read_ptx_sreg_tid_y())
#define TID_Z ((int)__nvvm_read_ptx_sreg_tid_z())
#define CTA_X ((int)__nvvm_read_ptx_sreg_ctaid_x())
#define CTA_Y ((int)__nvvm_read_ptx_sreg_ctaid_y())
#define CTA_Z ((int)__nvvm_read_ptx_sreg_ctaid_z())
#define NTID_X ((int)__nvvm_read_ptx_sreg_ntid_x())
#define NTID_Y ((int)__nvvm_read_ptx_sreg_ntid_y())
#define NTID_Z ((int)__nvvm_read_ptx_sreg_ntid_z())
#define NCTA_X ((int)__nvvm_read_ptx_sreg_nctaid_x())

#define SYNC() __syncthreads()

static __device__ float atomic_add_f32(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ int atomic_add_i32(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ int atomic_max_i32(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ float sqrt_f32(float x) { return __nvvm_sqrt_rn_f(x); }
static __device__ double sqrt_f64(double x) { return __nvvm_sqrt_rn_d(x); }
static __device__ float fmax_f32(float a, float b) { return __nvvm_fmax_f(a, b); }
static __device__ float fmin_f32(float a, float b) { return __nvvm_fmin_f(a, b); }
static __device__ float fabs_f32(float a) { return __nvvm_fabs_f(a); }
