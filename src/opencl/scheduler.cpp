// Command scheduling: readiness, status transitions, callbacks, waits (see scheduler.h).
#include "opencl/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "common/error.h"
#include "opencl/api.h"
#include "opencl/platform.h"

namespace strobe::opencl {

void retain_object(Object* o) { o->refs.fetch_add(1); }

void release_object(Object* o) {
  switch (o->magic) {
    case ObjType::Context: release(static_cast<cl_context>(o)); break;
    case ObjType::Queue: release(static_cast<cl_command_queue>(o)); break;
    case ObjType::Mem: release(static_cast<cl_mem>(o)); break;
    case ObjType::Program: release(static_cast<cl_program>(o)); break;
    case ObjType::Kernel: release(static_cast<cl_kernel>(o)); break;
    case ObjType::Event: release(static_cast<cl_event>(o)); break;
    default: break;  // the platform and device are not reference counted
  }
}

namespace {

/// A finished command's failure, reported once the locks are released.
struct Failure {
  cl_int code = CL_COMPLETE;
  std::string message;
};

const char* command_name(cl_command_type t) {
  switch (t) {
    case CL_COMMAND_NDRANGE_KERNEL: return "clEnqueueNDRangeKernel";
    case CL_COMMAND_TASK: return "clEnqueueTask";
    case CL_COMMAND_READ_BUFFER: return "clEnqueueReadBuffer";
    case CL_COMMAND_WRITE_BUFFER: return "clEnqueueWriteBuffer";
    case CL_COMMAND_COPY_BUFFER: return "clEnqueueCopyBuffer";
    case CL_COMMAND_MAP_BUFFER: return "clEnqueueMapBuffer";
    case CL_COMMAND_UNMAP_MEM_OBJECT: return "clEnqueueUnmapMemObject";
    case CL_COMMAND_FILL_BUFFER: return "clEnqueueFillBuffer";
    default: return "command";
  }
}

}  // namespace

cl_event Scheduler::submit(cl_command_queue q, cl_command_type type, cl_uint num_wait, const cl_event* wait,
                           Work work, std::vector<Object*> holds, Ordering ordering) {
  if ((num_wait == 0) != (wait == nullptr))
    fail(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list and event_wait_list disagree");
  for (cl_uint i = 0; i < num_wait; ++i) {
    if (!valid(wait[i])) fail(CL_INVALID_EVENT_WAIT_LIST, "event_wait_list[" + std::to_string(i) + "] is not a valid event");
    if (wait[i]->context != q->context)
      fail(CL_INVALID_CONTEXT, "event_wait_list[" + std::to_string(i) + "] belongs to another context");
  }

  auto* e = new _cl_event;
  e->refs = 2;  // the command's and the caller's
  e->context = q->context;
  e->queue = q;
  e->type = type;
  retain_object(q->context);
  retain_object(q);
  e->queued_ns = platform().now_ns();
  register_object(e);

  auto c = std::make_unique<Command>();
  c->event = e;
  c->work = std::move(work);
  for (Object* h : holds) retain_object(h);
  c->holds = std::move(holds);
  for (cl_uint i = 0; i < num_wait; ++i) {
    retain_object(wait[i]);
    c->deps.push_back(wait[i]);
  }
  c->explicit_deps = num_wait;
  c->ordering = ordering;

  std::vector<cl_event> released;
  {
    std::lock_guard lock(mu_);
    auto depend = [&](cl_event d) {
      if (d && d->status > CL_COMPLETE) {
        retain_object(d);
        c->deps.push_back(d);
      }
    };
    if (q->in_order()) {
      depend(q->last);
    } else if (ordering != Ordering::Normal && num_wait == 0) {
      for (cl_event d : q->incomplete) depend(d);
    } else {
      depend(q->barrier);
    }
    retain_object(e);
    q->incomplete.push_back(e);
    if (q->in_order()) {
      retain_object(e);
      if (q->last) released.push_back(q->last);
      q->last = e;
    } else if (ordering == Ordering::Barrier) {
      retain_object(e);
      if (q->barrier) released.push_back(q->barrier);
      q->barrier = e;
    }
    pending_.push_back(c.release());
  }
  release_all(released);
  pump();
  return e;
}

cl_event Scheduler::create_user_event(cl_context ctx) {
  auto* e = new _cl_event;
  e->context = ctx;
  e->type = CL_COMMAND_USER;
  e->status = CL_SUBMITTED;
  retain_object(ctx);
  register_object(e);
  return e;
}

void Scheduler::set_user_status(cl_event e, cl_int status) {
  if (e->type != CL_COMMAND_USER || e->queue) fail(CL_INVALID_EVENT, "not a user event");
  if (status > CL_COMPLETE) fail(CL_INVALID_VALUE, "execution_status must be CL_COMPLETE or a negative error code");
  Fired fired;
  {
    std::lock_guard lock(mu_);
    if (e->status <= CL_COMPLETE) fail(CL_INVALID_OPERATION, "the user event's status was already set");
    e->end_ns = platform().now_ns();  // commands waiting for it are ready from now
    set_status_locked(e, status, fired);
    cv_.notify_all();
  }
  fire(e, fired);
  pump();
}

void Scheduler::set_status_locked(cl_event e, cl_int status, Fired& fired) {
  e->status = status;
  auto reached = [&](const _cl_event::Callback& cb) { return status < 0 || status <= cb.type; };
  for (const auto& cb : e->callbacks)
    if (reached(cb)) fired.emplace_back(cb, status < 0 ? status : cb.type);
  std::erase_if(e->callbacks, reached);
}

void Scheduler::fire(cl_event e, const Fired& fired) {
  for (const auto& [cb, status] : fired) cb.fn(e, status, cb.data);
}

void Scheduler::finished_locked(cl_event e) {
  cl_command_queue q = e->queue;
  if (!q) return;
  auto it = std::find(q->incomplete.begin(), q->incomplete.end(), e);
  if (it != q->incomplete.end()) q->incomplete.erase(it);
  e->refs.fetch_sub(1);  // the queue's incomplete-list reference; the command still holds one
  if (q->last == e) {
    q->last = nullptr;
    e->refs.fetch_sub(1);
  }
  if (q->barrier == e) {
    q->barrier = nullptr;
    e->refs.fetch_sub(1);
  }
}

void Scheduler::pump() {
  for (;;) {
    Command* c = nullptr;
    bool dep_failed = false;
    Fired fired;
    {
      std::lock_guard lock(mu_);
      for (auto it = pending_.begin(); it != pending_.end(); ++it) {
        // Only an event the program waits for explicitly passes its failure on; a queue's
        // own ordering does not (an in-order queue goes on after a failed command, as it does
        // when the failure happened before the next command was enqueued).
        bool ready = true, failed = false;
        const auto& deps = (*it)->deps;
        for (size_t i = 0; i < deps.size(); ++i) {
          if (deps[i]->status > CL_COMPLETE) ready = false;
          if (deps[i]->status < 0 && i < (*it)->explicit_deps) failed = true;
        }
        if (!ready) continue;
        c = *it;
        dep_failed = failed;
        pending_.erase(it);
        break;
      }
      if (!c) return;
      if (!dep_failed) {
        c->event->submit_ns = platform().now_ns();
        set_status_locked(c->event, CL_SUBMITTED, fired);
        set_status_locked(c->event, CL_RUNNING, fired);
      }
    }
    std::unique_ptr<Command> owned(c);
    cl_event e = c->event;
    fire(e, fired);
    fired.clear();

    Failure failure;
    if (dep_failed) {
      failure.code = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
      e->submit_ns = e->start_ns = e->end_ns = platform().now_ns();
    } else {
      Platform& p = platform();
      std::lock_guard device_lock(p.device_mutex());
      if (!p.timing_mode()) e->start_ns = p.now_ns();
      try {
        c->work();
      } catch (const ClError& err) {
        failure = {err.code(), err.what()};
      } catch (const std::bad_alloc&) {
        failure = {CL_OUT_OF_HOST_MEMORY, "out of host memory"};
      } catch (const std::exception& err) {
        // Kernel faults (strobe::FaultError), unimplemented instructions, watchdog expiry.
        failure = {CL_OUT_OF_RESOURCES, err.what()};
      }
      if (p.timing_mode()) place(*c);
      else e->end_ns = p.now_ns();
    }
    if (failure.code < 0 && !dep_failed) {
      std::string msg = std::string("strobe: ") + command_name(e->type) + " failed (" + error_name(failure.code) +
                        "): " + failure.message;
      std::fprintf(stderr, "%s\n", msg.c_str());
      if (e->context->notify) e->context->notify(msg.c_str(), nullptr, 0, e->context->notify_data);
    }
    {
      std::lock_guard lock(mu_);
      set_status_locked(e, failure.code, fired);
      finished_locked(e);
      cv_.notify_all();
    }
    fire(e, fired);
    release_all(c->deps);
    for (Object* h : c->holds) release_object(h);
    release(e);
  }
}

void Scheduler::place(const Command& c) {
  cl_event e = c.event;
  cl_command_queue q = e->queue;
  uint64_t ready = 0;
  for (cl_event d : c.deps) ready = std::max(ready, d->end_ns);
  // The queue's order: an in-order queue's command follows every earlier one; an out-of-order
  // queue's follows its latest barrier, and a barrier or a marker without a wait list follows
  // every earlier command.
  const bool after_all = q->in_order() || (c.ordering != Ordering::Normal && c.explicit_deps == 0);
  ready = std::max(ready, after_all ? q->sim_all_end_ns.load() : q->sim_barrier_end_ns.load());
  const timing::CommandTimes t = platform().place_command(e->queued_ns, ready);
  e->submit_ns = t.submit;
  e->start_ns = t.start;
  e->end_ns = t.end;
  q->sim_all_end_ns = std::max(q->sim_all_end_ns.load(), t.end);
  if (c.ordering == Ordering::Barrier) q->sim_barrier_end_ns = t.end;
}

cl_int Scheduler::wait(std::span<const cl_event> events) {
  pump();
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] {
    return std::all_of(events.begin(), events.end(), [](cl_event e) { return e->status <= CL_COMPLETE; });
  });
  uint64_t last = 0;
  bool failed = false;
  for (cl_event e : events) {
    last = std::max(last, e->end_ns);
    failed |= e->status < 0;
  }
  lock.unlock();
  platform().host_waited(last);  // the host learns of the last end only once it has happened
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

void Scheduler::finish(cl_command_queue q) {
  std::vector<cl_event> snapshot;
  {
    std::lock_guard lock(mu_);
    snapshot = q->incomplete;
    for (cl_event e : snapshot) retain_object(e);
  }
  wait(snapshot);
  release_all(snapshot);
  // Commands that had already run when finish was called are waited for too: on the simulated
  // timeline they end when the queue's last one does.
  platform().host_waited(q->sim_all_end_ns.load());
}

cl_int Scheduler::status(cl_event e) {
  std::lock_guard lock(mu_);
  return e->status;
}

std::array<uint64_t, 4> Scheduler::times(cl_event e) {
  std::lock_guard lock(mu_);
  return {e->queued_ns, e->submit_ns, e->start_ns, e->end_ns};
}

void Scheduler::add_callback(cl_event e, cl_int type, void(CL_CALLBACK* fn)(cl_event, cl_int, void*), void* data) {
  cl_int status;
  {
    std::lock_guard lock(mu_);
    status = e->status;
    if (status > type) {
      e->callbacks.push_back({type, fn, data});
      return;
    }
  }
  fn(e, status < 0 ? status : type, data);
}

void Scheduler::forget_queue(cl_command_queue q) {
  std::vector<cl_event> released;
  {
    std::lock_guard lock(mu_);
    released = std::move(q->incomplete);
    if (q->last) released.push_back(q->last);
    if (q->barrier) released.push_back(q->barrier);
    q->last = q->barrier = nullptr;
  }
  release_all(released);
}

}  // namespace strobe::opencl
