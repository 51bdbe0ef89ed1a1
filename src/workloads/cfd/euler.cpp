// The float reference of cfd's kernels (kernels/workloads/cfd.cl), operation for operation.
#include "workloads/cfd/euler.h"

#include <cmath>

namespace strobe::workloads::cfd {
namespace {

constexpr float kGamma = 1.4f;
constexpr float kSmoothing = 0.2f;  ///< artificial-viscosity coefficient

/// Three floats, as the kernels' float3.
struct V3 {
  float x = 0, y = 0, z = 0;
};

/// One cell's conserved variables, derived quantities and flux contributions (the kernels' State).
struct State {
  float density, density_energy, pressure, speed_sqd, speed_of_sound;
  V3 momentum, velocity, fc_mx, fc_my, fc_mz, fc_de;
};

/// Fills the flux contributions from the primitive quantities.
void flux_contribution(State& s) {
  s.fc_mx = {s.velocity.x * s.momentum.x + s.pressure, s.velocity.x * s.momentum.y, s.velocity.x * s.momentum.z};
  s.fc_my = {s.fc_mx.y, s.velocity.y * s.momentum.y + s.pressure, s.velocity.y * s.momentum.z};
  s.fc_mz = {s.fc_mx.z, s.fc_my.z, s.velocity.z * s.momentum.z + s.pressure};
  float de_p = s.density_energy + s.pressure;
  s.fc_de = {s.velocity.x * de_p, s.velocity.y * de_p, s.velocity.z * de_p};
}

/// Cell i's state as the kernels' load_state derives it, with its flux contributions.
State load_state(const std::vector<float>& var, size_t i, size_t nelr) {
  State s;
  s.density = var[i];
  s.momentum = {var[i + nelr], var[i + 2 * nelr], var[i + 3 * nelr]};
  s.density_energy = var[i + 4 * nelr];
  s.velocity = {s.momentum.x / s.density, s.momentum.y / s.density, s.momentum.z / s.density};
  s.speed_sqd = s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y + s.velocity.z * s.velocity.z;
  s.pressure = (kGamma - 1.0f) * (s.density_energy - 0.5f * s.density * s.speed_sqd);
  s.speed_of_sound = std::sqrt(kGamma * s.pressure / s.density);
  flux_contribution(s);
  return s;
}

/// Adds factor * (a + b) componentwise to the five flux sums, in the kernels' order.
struct Flux {
  float density = 0, density_energy = 0;
  V3 momentum;
  void add(float factor, float d, float de, float mx, float my, float mz) {
    density += factor * d, density_energy += factor * de;
    momentum.x += factor * mx, momentum.y += factor * my, momentum.z += factor * mz;
  }
};

/// The flux sum of cell i (the cfd_flux kernel).
Flux cell_flux(const Mesh& m, const FarField& ff, const std::vector<float>& var, size_t i) {
  const size_t n = m.nelr;
  State si = load_state(var, i, n);
  float speed_i = std::sqrt(si.speed_sqd);
  Flux f;
  for (int j = 0; j < kNnb; ++j) {
    int nb = m.neighbours[i + j * n];
    V3 nrm{m.normals[i + j * n], m.normals[i + (j + kNnb) * n], m.normals[i + (j + 2 * kNnb) * n]};
    float normal_len = std::sqrt(nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z);
    if (nb >= 0) {
      State sn = load_state(var, size_t(nb), n);
      float factor = -normal_len * kSmoothing * 0.5f *
                     (speed_i + std::sqrt(sn.speed_sqd) + si.speed_of_sound + sn.speed_of_sound);
      f.add(factor, si.density - sn.density, si.density_energy - sn.density_energy, si.momentum.x - sn.momentum.x,
            si.momentum.y - sn.momentum.y, si.momentum.z - sn.momentum.z);
      f.add(0.5f * nrm.x, sn.momentum.x + si.momentum.x, sn.fc_de.x + si.fc_de.x, sn.fc_mx.x + si.fc_mx.x,
            sn.fc_my.x + si.fc_my.x, sn.fc_mz.x + si.fc_mz.x);
      f.add(0.5f * nrm.y, sn.momentum.y + si.momentum.y, sn.fc_de.y + si.fc_de.y, sn.fc_mx.y + si.fc_mx.y,
            sn.fc_my.y + si.fc_my.y, sn.fc_mz.y + si.fc_mz.y);
      f.add(0.5f * nrm.z, sn.momentum.z + si.momentum.z, sn.fc_de.z + si.fc_de.z, sn.fc_mx.z + si.fc_mx.z,
            sn.fc_my.z + si.fc_my.z, sn.fc_mz.z + si.fc_mz.z);
    } else if (nb == kWall) {
      f.momentum.x += nrm.x * si.pressure, f.momentum.y += nrm.y * si.pressure, f.momentum.z += nrm.z * si.pressure;
    } else if (nb == kFarField) {
      const float* c = ff.data();  // variables 0-4, then momentum x/y/z and energy contributions
      float nc[3] = {nrm.x, nrm.y, nrm.z};
      float mi[3] = {si.momentum.x, si.momentum.y, si.momentum.z};
      float dei[3] = {si.fc_de.x, si.fc_de.y, si.fc_de.z};
      float mxi[3] = {si.fc_mx.x, si.fc_mx.y, si.fc_mx.z}, myi[3] = {si.fc_my.x, si.fc_my.y, si.fc_my.z};
      float mzi[3] = {si.fc_mz.x, si.fc_mz.y, si.fc_mz.z};
      for (int d = 0; d < 3; ++d)
        f.add(0.5f * nc[d], c[1 + d] + mi[d], c[14 + d] + dei[d], c[5 + d] + mxi[d], c[8 + d] + myi[d],
              c[11 + d] + mzi[d]);
    }
  }
  return f;
}

}  // namespace

FarField far_field() {
  const float density = 1.4f, pressure = 1.0f, mach = 1.2f;
  const float speed = mach * std::sqrt(kGamma * pressure / density);
  State s{};
  s.density = density, s.pressure = pressure;
  s.velocity = {speed * std::cos(0.0f), speed * std::sin(0.0f), 0.0f};
  s.momentum = {density * s.velocity.x, density * s.velocity.y, density * s.velocity.z};
  s.density_energy = density * (0.5f * (speed * speed)) + pressure / (kGamma - 1.0f);
  flux_contribution(s);
  return {density,    s.momentum.x, s.momentum.y, s.momentum.z, s.density_energy, s.fc_mx.x, s.fc_mx.y, s.fc_mx.z, s.fc_my.x,
          s.fc_my.y, s.fc_my.z,    s.fc_mz.x,    s.fc_mz.y,    s.fc_mz.z,         s.fc_de.x, s.fc_de.y, s.fc_de.z};
}

void reference_solve(const Mesh& mesh, const FarField& ff, std::vector<float>& var, uint32_t iterations) {
  const size_t n = mesh.nelr;
  std::vector<float> old(var.size()), step(n), flux(var.size());
  for (uint32_t it = 0; it < iterations; ++it) {
    old = var;
    for (size_t i = 0; i < n; ++i) {
      State s = load_state(var, i, n);
      step[i] = 0.5f / (std::sqrt(mesh.areas[i]) * (std::sqrt(s.speed_sqd) + s.speed_of_sound));
    }
    for (int j = 0; j < kRk; ++j) {
      for (size_t i = 0; i < n; ++i) {
        Flux f = cell_flux(mesh, ff, var, i);
        float v[kNvar] = {f.density, f.momentum.x, f.momentum.y, f.momentum.z, f.density_energy};
        for (int k = 0; k < kNvar; ++k) flux[i + k * n] = v[k];
      }
      for (size_t i = 0; i < n; ++i) {
        float factor = step[i] / float(kRk + 1 - j);
        for (int k = 0; k < kNvar; ++k) var[i + k * n] = old[i + k * n] + factor * flux[i + k * n];
      }
    }
  }
}

}  // namespace strobe::workloads::cfd
