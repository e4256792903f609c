// Runs fn(0), ..., fn(count - 1) on `jobs` threads, each thread taking the next
// index as it finishes the previous one (runs differ much in length, so a
// static split would leave threads idle). The first exception thrown by fn is
// rethrown in the caller after every thread has stopped; the indices not yet
// started are then skipped.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rescue::bench {

template <class Fn>
void parallel_for(std::size_t count, int jobs, Fn&& fn) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (;;) {
      if (stop.load()) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        stop = true;
      }
    }
  };
  const std::size_t threads = std::max<std::size_t>(1, std::min<std::size_t>(count, static_cast<std::size_t>(std::max(1, jobs))));
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace rescue::bench
