// The profile-driven representative methods' shared passes: profiling, pass state, divergence
// from the profile, and the completion of launches that ran before their representative.
#include "sampling/common/representative_method.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/common/ipc_stability.h"
#include "sampling/common/warming.h"
#include "sampling/profile/functional_profile.h"

namespace strobe::sampling {

namespace sp = profile;

RepresentativeMethod::RepresentativeMethod(const MethodOptions& o, std::string name, std::string noun)
    : o_(o),
      name_(std::move(name)),
      noun_(std::move(noun)),
      profile_pass_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
        return run_profile(d, mem, gpu);
      }),
      observe_pass_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
        return run_observe(d, mem, gpu);
      }),
      sampled_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
        return run_sampled(d, mem, gpu);
      }) {}

runtime::DispatchRunner& RepresentativeMethod::runner(int pass) {
  if (pass < first_passes()) return o_.profile ? observe_pass_ : profile_pass_;
  // A subclass partitions in its constructor's body, after this base is built: the profile it
  // was given is taken on first use instead.
  if (o_.profile && !prepared_) prepare(*o_.profile);
  return sampled_;
}

void RepresentativeMethod::end_pass(int pass) {
  if (pass < first_passes() && o_.profile) {
    if (observed_ != o_.profile->launches.size())
      throw NotImplementedError(fmt::format("{}: the run had {} launches, {} has {}; a method that observes every "
                                            "dispatch before it partitions needs the profiled sequence",
                                            name_, observed_, source(), o_.profile->launches.size()));
    prepare(*o_.profile);
    return;
  }
  if (pass < first_passes()) {
    sp::ProfileFile f;
    f.line_bytes = line_bytes();
    f.launches = std::move(profiled_);
    prepare(f);
    saved_ = std::move(f.launches);  // kept for save_passes(): a program's next pass runs elsewhere
    return;
  }
  finish();
  // Another round only while the run kept to the profile: past a departure there is no
  // population to add samples from.
  if (!diverged_ && revise(partition_)) {
    ++sampled_rounds_;
    start_round();
  }
}

bool RepresentativeMethod::revise(LaunchPartition&) { return false; }

void RepresentativeMethod::save_passes(int pass, const std::string& path, const sp::WorkloadIdentity& w) const {
  if (observes_dispatches())
    throw NotImplementedError(fmt::format("{}: a first pass's state that holds what it observed of each dispatch "
                                          "(run the passes in one process)", name_));
  if (first_passes() != 1 || pass != 0)
    throw FaultError(fmt::format("{}: pass {} has no state to save; only the profiling pass does", name_, pass));
  sp::ProfileFile f;
  f.workload = w;
  f.line_bytes = line_bytes();
  f.seconds = profile_seconds_;
  f.launches = saved_;
  sp::save(path, f);
}

void RepresentativeMethod::restore_passes(int pass, const std::string& path, const sp::WorkloadIdentity& w) {
  if (observes_dispatches())
    throw NotImplementedError(fmt::format("{}: a first pass's state that holds what it observed of each dispatch "
                                          "(run the passes in one process)", name_));
  if (first_passes() != 1 || pass != 1)
    throw FaultError(fmt::format("{}: cannot start at pass {}; only the first sampled pass follows a state", name_, pass));
  const sp::ProfileFile f = sp::load(path);
  sp::require_match(path, sp::first_difference(f, w, line_bytes()));
  state_file_ = path;
  prepare(f);
}

void RepresentativeMethod::prepare(const sp::ProfileFile& f) {
  kernargs_comparable_ = sp::kernargs_comparable(f.workload);
  ids_.clear();
  wave_insts_.clear();
  thread_insts_.clear();
  for (const auto& l : f.launches) {
    ids_.push_back(l.id);
    wave_insts_.push_back(l.workgroups.sum(sp::column::kWaveInsts));
    thread_insts_.push_back(l.workgroups.sum(sp::column::kThreadInsts));
  }
  partition_ = partition(f);
  prepared_ = true;
  if (partition_.group.size() != f.launches.size())
    throw FaultError(fmt::format("{}: partitioned {} of {} launches", name_, partition_.group.size(), f.launches.size()));
  start_round();
}

void RepresentativeMethod::start_round() {
  const size_t groups = partition_.samples.size();
  is_sample_.assign(partition_.group.size(), false);
  remaining_.assign(groups, 0);
  for (size_t g = 0; g < groups; ++g) {
    if (partition_.samples[g].empty()) throw FaultError(fmt::format("{}: {} {} has no representative", name_, noun_, g));
    for (size_t l : partition_.samples[g]) is_sample_.at(l) = true;
    remaining_[g] = partition_.samples[g].size();
  }
  runs_.assign(groups, {});
  pending_.assign(groups, {});
  launch_ = 0;
  diverged_.reset();
  projected_insts_ = 0;
  borrowed_ = short_ = from_unprofiled_ = 0;
  unprofiled_.clear();
}

std::string RepresentativeMethod::source() const {
  if (o_.profile) return fmt::format("profile {}", o_.profile_path);
  return state_file_.empty() ? std::string("the profiling pass") : fmt::format("profile {}", state_file_);
}

sp::LaunchRecord RepresentativeMethod::profile_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                                     emu::DispatchStats& stats) {
  return sp::profile_launch(d, mem, line_bytes(), stats, nullptr, gpu.host_threads());
}

void RepresentativeMethod::observe(const emu::Dispatch&, timing::Gpu&, size_t, const sp::LaunchRecord&) {
  throw FaultError(fmt::format("{}: observe() called on a method that does not observe dispatches", name_));
}

runtime::LaunchResult RepresentativeMethod::run_profile(const emu::Dispatch& d, emu::GlobalMemory& mem,
                                                        timing::Gpu& gpu) {
  runtime::LaunchResult r;
  const auto t0 = std::chrono::steady_clock::now();
  profiled_.push_back(profile_launch(d, mem, gpu, r.stats));
  if (observes_dispatches()) observe(d, gpu, profiled_.size() - 1, profiled_.back());
  profile_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.sampling = profile_record(name_, r.stats.wave_instructions);
  return r;
}

runtime::LaunchResult RepresentativeMethod::run_observe(const emu::Dispatch& d, emu::GlobalMemory& mem,
                                                        timing::Gpu& gpu) {
  const size_t i = observed_++;
  const std::vector<sp::LaunchRecord>& launches = o_.profile->launches;
  if (i == 0) {  // prepare() sets the same again once the pass ends
    ids_.clear();
    for (const auto& l : launches) ids_.push_back(l.id);
    kernargs_comparable_ = sp::kernargs_comparable(o_.profile->workload);
  }
  // What the method observes must be the profiled launch: a sequence that depends on timing has
  // no fixed population to partition.
  if (auto why = departure(o_, i, d, mem, ids_, kernargs_comparable_, source()))
    throw NotImplementedError(fmt::format("{} over a launch sequence that depends on timing: {}; a method that "
                                          "observes every dispatch before it partitions needs the profiled one",
                                          name_, *why));
  observe(d, gpu, i, launches[i]);
  runtime::LaunchResult r;
  // Run for the sake of later launches' memory, which a capture's checkpoints already hold.
  if (!skips(d)) r.stats = run_functional_launch(d, mem, gpu, Warming::None);
  r.sampling = profile_record(name_, r.stats.wave_instructions);
  return r;
}

runtime::LaunchResult RepresentativeMethod::run_sampled(const emu::Dispatch& d, emu::GlobalMemory& mem,
                                                        timing::Gpu& gpu) {
  const size_t i = launch_++;
  if (!diverged_) {
    diverged_ = departure(o_, i, d, mem, ids_, kernargs_comparable_, source());
    if (diverged_) diverged_at_ = i;
  }
  // A workload whose launches depend on timing (sssp's iteration count follows the order its
  // atomics land in) can leave the launch sequence it was profiled with. From there on the
  // profile says nothing about the launches, so they are simulated in full detail.
  if (diverged_) return unprofiled_.run(name_, *diverged_, d, mem, gpu);
  const size_t g = partition_.group[i];
  const std::vector<size_t>& samples = partition_.samples[g];
  const bool skip = skips(d);
  auto rec = std::make_shared<runtime::SampledLaunch>();
  rec->method = name_;
  rec->emulated = !skip;
  rec->detail = {{noun_, g}};
  if (samples.size() == 1) rec->detail["representative"] = samples.front();
  else rec->detail["representatives"] = samples.size();
  runtime::LaunchResult r;
  std::shared_ptr<timing::LaunchTiming> lt;
  if (is_sample_[i]) {
    if (const auto it = simulated_.find(i); it != simulated_.end()) {
      // Simulated in an earlier round: its run stands (run again functionally only for the
      // memory later launches read, which a capture's checkpoints already hold).
      lt = it->second.first;
      nlohmann::json detail = std::move(rec->detail);  // this round's group and samples
      *rec = it->second.second;
      rec->detail = std::move(detail);
      r.stats = skip ? lt->functional : run_functional_launch(d, mem, gpu, o_.warming);
    } else {
      lt = simulate(d, mem, gpu, i, *rec);
      r.stats = lt->functional;
      simulated_.emplace(i, std::make_pair(lt, *rec));
    }
    runs_[g].push_back(RepresentativeRun{i, lt->cycles, lt->wave_instructions});
    if (--remaining_[g] == 0) {
      for (Pending& p : pending_[g]) complete(p, runs_[g]);
      pending_[g].clear();
    }
  } else {
    // The launch's own instructions as it ran (the profile's when it is not emulated).
    if (!skip) r.stats = run_functional_launch(d, mem, gpu, o_.warming);
    const uint64_t insts = skip ? wave_insts_[i] : r.stats.wave_instructions;
    lt = std::make_shared<timing::LaunchTiming>(timing::predicted_launch_timing(
        d.kernel_name, 0, insts, thread_insts_[i], r.stats, gpu.config().clock_mhz));
    rec->level = noun_;
    rec->predicted_instructions = insts;
    projected_insts_ += insts;
    Pending p{i, insts, lt, rec};
    if (remaining_[g] == 0) complete(p, runs_[g]);
    else pending_[g].push_back(std::move(p));
  }
  r.timing = lt;
  r.sampling = rec;
  return r;
}

std::shared_ptr<timing::LaunchTiming> RepresentativeMethod::simulate(const emu::Dispatch& d, emu::GlobalMemory& mem,
                                                                     timing::Gpu& gpu, size_t i,
                                                                     runtime::SampledLaunch& rec) {
  const bool skip = skips(d);
  std::optional<IpcStabilityObserver> obs;
  if (intra_launch_) {
    obs.emplace(kIpcRule.interval, kIpcRule.window, kIpcRule.variance, kIpcRule.generations, 0, skip);
    obs->set_warming(warmer_for(gpu, o_.warming));
  }
  auto lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, obs ? &*obs : nullptr));
  rec.level = "detailed";
  const uint64_t insts = skip ? wave_insts_[i] : lt->functional.wave_instructions;
  if (obs && obs->projects()) {
    rec.level = "ipc-projection";
    lt->cycles = obs->projected_cycles(insts);
    rec.detail["stop_cycle"] = obs->stop_cycles();
    rec.detail["stop_ipc"] = obs->stop_ipc();
    ++ipc_stopped_;
  } else if (obs && obs->stopped()) {
    rec.detail["stopped_after_last_dispatch"] = obs->stop_cycles();  // measured cycles kept
  }
  rec.detailed_instructions = lt->detailed_wave_instructions;
  rec.predicted_instructions = insts - std::min(insts, lt->detailed_wave_instructions);
  rec.estimated_cycles = lt->cycles;
  const uint64_t threads = skip ? thread_insts_[i] : lt->functional.thread_instructions;
  lt->set_totals(lt->cycles, insts, threads, gpu.config().clock_mhz);
  return lt;
}

double RepresentativeMethod::project(std::span<const RepresentativeRun> runs, size_t, uint64_t instructions) const {
  uint64_t cycles = 0, insts = 0;
  for (const RepresentativeRun& r : runs) cycles += r.cycles, insts += r.instructions;
  return double(cycles) / double(std::max<uint64_t>(insts, 1)) * double(instructions);
}

void RepresentativeMethod::complete(Pending& p, std::span<const RepresentativeRun> runs) {
  set_time(p, project(runs, p.launch, p.insts));
}

void RepresentativeMethod::set_time(Pending& p, double projected) {
  const uint64_t cycles = uint64_t(std::llround(projected));
  p.timing->set_totals(cycles, p.insts, p.timing->thread_instructions, o_.gpu.clock_mhz);
  p.record->estimated_cycles = cycles;
}

void RepresentativeMethod::finish() {
  std::vector<bool> ran(runs_.size());
  for (size_t g = 0; g < runs_.size(); ++g) ran[g] = !runs_[g].empty();
  for (size_t g = 0; g < pending_.size(); ++g) {
    if (pending_[g].empty()) continue;
    // Some of the group's representatives ran before the run left the profile: they time it.
    if (ran[g]) {
      for (Pending& p : pending_[g]) {
        complete(p, runs_[g]);
        p.record->detail["representatives_run"] = runs_[g].size();
      }
      short_ += pending_[g].size();
      pending_[g].clear();
      continue;
    }
    const std::optional<size_t> from = borrow(g, ran);
    if ((!from || !ran[*from]) && unprofiled_.timed()) {
      // No group's representative ran before the run left the profile (the first one to run
      // was the departing launch, or came after it): the launches simulated in detail from the
      // departure on are the only measured time, and they time the launches left waiting.
      // Their CPI, not the method's own projection: that reads per-launch data of the profile,
      // which launches past it do not have.
      for (Pending& p : pending_[g]) unprofiled_.time(*p.timing, *p.record, p.insts, o_.gpu.clock_mhz);
      from_unprofiled_ += pending_[g].size();
      pending_[g].clear();
      continue;
    }
    if (!from || !ran[*from])
      throw FaultError(fmt::format("{}: the run ended after {} launches without simulating any representative; "
                                   "launch {}'s {} has no time",
                                   name_, launch_, pending_[g].front().launch, noun_));
    for (Pending& p : pending_[g]) {
      complete(p, runs_[*from]);
      p.record->detail["projected_from_" + noun_] = *from;
    }
    borrowed_ += pending_[g].size();
    pending_[g].clear();
  }
}

nlohmann::json RepresentativeMethod::base_summary() const {
  nlohmann::json reps = nlohmann::json::array();
  for (const std::vector<size_t>& g : partition_.samples)
    for (size_t r : g) reps.push_back(r);
  uint64_t total = 0;
  for (uint64_t w : wave_insts_) total += w;
  nlohmann::json out = {// A reused profile's file and collection time: its cost is outside the method's time.
          {"reused_profile", o_.profile ? nlohmann::json{{"file", o_.profile_path}, {"seconds", o_.profile->seconds}}
                                        : nlohmann::json()},
          {"launches", ids_.size()},
          {noun_ == "stratum" ? "strata" : noun_ + "s", partition_.samples.size()},
          {"representatives", reps},
          // Wave instructions of the launches projected from their group's representative, and
          // their share of the profiled total.
          {"projected_instructions", projected_insts_},
          {"projected_share", double(projected_insts_) / double(std::max<uint64_t>(total, 1))},
          // Launches after the run left the profiled sequence (timing-dependent workloads),
          // simulated in detail, and launches whose representative never ran as a result.
          {"unprofiled_launches", unprofiled_.launches()},
          {"diverged", diverged_ ? nlohmann::json{{"launch", diverged_at_}, {"reason", *diverged_}} : nlohmann::json()},
          {"launches_timed_from_another_" + noun_, borrowed_},
          {"launches_timed_from_part_of_their_" + noun_, short_},
          {"launches_timed_from_unprofiled_launches", from_unprofiled_}};
  // Representatives whose simulation ended at a stable IPC, the rest of the launch projected.
  if (intra_launch_) out["representatives_ended_at_stable_ipc"] = ipc_stopped_;
  return out;
}

}  // namespace strobe::sampling
