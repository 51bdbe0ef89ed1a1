// Commands, their events and the order they run in. There is no worker thread: a command runs
// in whichever API call finds it ready (its enqueue, a clSetUserEventStatus that releases it, a
// wait), one at a time under the device lock. A command is ready when every event it waits for
// has finished; an in-order queue adds its previous command to that list, an out-of-order
// queue its latest barrier. Callbacks are called without any platform lock held, so they may
// call the API.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

#include "opencl/objects.h"

namespace strobe::opencl {

/// The work of a command; runs under the device lock, throws to fail the command.
using Work = std::function<void()>;

/// How a command relates to the other commands of an out-of-order queue.
enum class Ordering { Normal, Marker, Barrier };

class Scheduler {
 public:
  /// Queues a command on `q` after the events in `wait` (validated: CL_INVALID_EVENT_WAIT_LIST,
  /// CL_INVALID_CONTEXT), then runs whatever is ready. `holds` are objects the command keeps
  /// alive until it finishes (one reference each is taken). Returns the command's event with
  /// one reference for the caller (release it when not handed to the program).
  cl_event submit(cl_command_queue q, cl_command_type type, cl_uint num_wait, const cl_event* wait, Work work,
                  std::vector<Object*> holds = {}, Ordering ordering = Ordering::Normal);

  /// A new user event of `ctx` (status CL_SUBMITTED).
  cl_event create_user_event(cl_context ctx);
  /// clSetUserEventStatus: CL_COMPLETE or a negative error, once.
  void set_user_status(cl_event e, cl_int status);

  /// Runs ready commands until none is left.
  void pump();
  /// Blocks until every event has finished; CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if any
  /// ended in error, CL_SUCCESS otherwise.
  cl_int wait(std::span<const cl_event> events);
  /// Blocks until every command queued on `q` so far has finished.
  void finish(cl_command_queue q);

  /// The event's execution status.
  cl_int status(cl_event e);
  /// Profiling timestamps (ns) of a finished command event: queued, submit, start, end.
  std::array<uint64_t, 4> times(cl_event e);
  /// clSetEventCallback; calls at once (in this thread) if the status was already reached.
  void add_callback(cl_event e, cl_int type, void(CL_CALLBACK* fn)(cl_event, cl_int, void*), void* data);

  /// Drops a queue's bookkeeping references (at queue teardown; it has no unfinished commands).
  void forget_queue(cl_command_queue q);

 private:
  struct Command {
    cl_event event = nullptr;
    std::vector<cl_event> deps;  // retained; the first `explicit_deps` came from the wait list
    size_t explicit_deps = 0;
    Work work;
    std::vector<Object*> holds;  // retained
    Ordering ordering = Ordering::Normal;
  };
  using Fired = std::vector<std::pair<_cl_event::Callback, cl_int>>;

  /// Sets the status (lock held) and collects the callbacks it triggers.
  void set_status_locked(cl_event e, cl_int status, Fired& fired);
  /// Bookkeeping after a command's event finished (lock held).
  void finished_locked(cl_event e);
  static void fire(cl_event e, const Fired& fired);
  void run(Command& c);
  /// Timing mode: places command `c`, which just ran, on the simulated timeline after its
  /// dependencies and its queue's order, and sets its event's times.
  static void place(const Command& c);

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Command*> pending_;  // submission order
};

/// Releases one object of any type (for Scheduler holds).
void release_object(Object* o);
/// Takes one reference of any live object.
void retain_object(Object* o);

}  // namespace strobe::opencl
