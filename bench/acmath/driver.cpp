// Side-by-side benchmark driver: times Siemens' ac_math functions on the same W = 32 inputs
// that crates/spvx-num/benches/fixed_acmath.rs gives spvx's batch API (scripts/bench-acmath
// runs both). The ac_types / ac_math headers are NOT part of this repository: the script
// passes their include directories. Output: one line per function, `NAME RATE_M_PER_S`.
//
// Formats (ac_types spelling; the Rust side uses the same values):
//   sqrt    ac_sqrt            x ac_fixed<32,4,false>            -> ac_fixed<32,4,false,AC_RND_CONV,AC_SAT>
//   sincos  ac_sincos_cordic   x/pi ac_fixed<32,2,true>, scale 1 -> sin, cos ac_fixed<32,2,true,AC_RND_CONV,AC_SAT>
//           (ac_math's angle is x/pi: spvx's sincospi)
//   log     ac_log_cordic      x ac_fixed<32,4,false> (x > 0)    -> ac_fixed<32,4,true,AC_RND_CONV,AC_SAT>
//   exp     ac_exp_cordic      x ac_fixed<32,4,true>             -> ac_fixed<32,13,false,AC_RND_CONV,AC_SAT>
#include <ac_fixed.h>
#include <ac_math/ac_sqrt.h>
#include <ac_math/ac_sincos_cordic.h>
#include <ac_math/ac_hcordic.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// splitmix64, the generator of the Rust side.
static uint64_t next(uint64_t &s) {
  s += 0x9e3779b97f4a7c15ull;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The 32-bit input patterns of one function: seed per function, `mask` clears bits
// (0x7fffffff keeps log inputs positive, never 0 after the OR of 1).
static std::vector<uint32_t> inputs(size_t n, uint64_t seed, uint32_t mask, uint32_t set) {
  std::vector<uint32_t> v(n);
  uint64_t s = seed;
  for (auto &x : v) x = ((uint32_t)next(s) & mask) | set;
  return v;
}

template <class F> static double rate(size_t n, int reps, F body) {
  double best = 1e300;
  for (int r = 0; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    if (s < best) best = s;
  }
  return n / best / 1e6;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 200000;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  volatile uint64_t sink = 0;

  {
    auto xs = inputs(n, 1, 0xffffffffu, 0);
    double r = rate(n, reps, [&] {
      uint64_t acc = 0;
      for (uint32_t b : xs) {
        ac_fixed<32, 4, false> x;
        x.set_slc(0, ac_int<32, false>(b));
        ac_fixed<32, 4, false, AC_RND_CONV, AC_SAT> y;
        ac_math::ac_sqrt(x, y);
        acc += y.slc<32>(0).to_uint64();
      }
      sink = sink + acc;
    });
    printf("sqrt %.3f\n", r);
  }
  {
    auto xs = inputs(n, 2, 0xffffffffu, 0);
    double r = rate(n, reps, [&] {
      uint64_t acc = 0;
      for (uint32_t b : xs) {
        ac_fixed<32, 2, true> x;
        x.set_slc(0, ac_int<32, false>(b));
        ac_fixed<32, 2, true, AC_RND_CONV, AC_SAT> one = 1.0, s, c;
        ac_math::ac_sincos_cordic(x, one, s, c);
        acc += s.slc<32>(0).to_uint64() ^ c.slc<32>(0).to_uint64();
      }
      sink = sink + acc;
    });
    printf("sincos %.3f\n", r);
  }
  {
    auto xs = inputs(n, 3, 0x7fffffffu, 1);
    double r = rate(n, reps, [&] {
      uint64_t acc = 0;
      for (uint32_t b : xs) {
        ac_fixed<32, 4, false> x;
        x.set_slc(0, ac_int<32, false>(b));
        ac_fixed<32, 4, true, AC_RND_CONV, AC_SAT> y;
        ac_math::ac_log_cordic(x, y);
        acc += y.slc<32>(0).to_uint64();
      }
      sink = sink + acc;
    });
    printf("log %.3f\n", r);
  }
  {
    auto xs = inputs(n, 4, 0xffffffffu, 0);
    double r = rate(n, reps, [&] {
      uint64_t acc = 0;
      for (uint32_t b : xs) {
        ac_fixed<32, 4, true> x;
        x.set_slc(0, ac_int<32, false>(b));
        ac_fixed<32, 13, false, AC_RND_CONV, AC_SAT> y;
        ac_math::ac_exp_cordic(x, y);
        acc += y.slc<32>(0).to_uint64();
      }
      sink = sink + acc;
    });
    printf("exp %.3f\n", r);
  }
  return sink == 42 ? 1 : 0;
}
