#pragma once
// The evaluation slot the calling thread runs in: 0 .. workers−1 of this process, set by whoever runs
// evaluations side by side (the study runner, `dpareto exact`) and read by the external oracle's
// {worker} placeholder (e.g. to give each slot its own GPU). 0 outside any slot.
namespace dpareto {

int current_worker_slot();

// Sets the calling thread's slot for its lifetime, then restores the previous one.
class WorkerSlotScope {
 public:
  explicit WorkerSlotScope(int slot);
  ~WorkerSlotScope();
  WorkerSlotScope(const WorkerSlotScope&) = delete;
  WorkerSlotScope& operator=(const WorkerSlotScope&) = delete;

 private:
  int previous_;
};

}  // namespace dpareto
