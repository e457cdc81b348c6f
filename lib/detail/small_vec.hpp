// cutevis — SmallVec: a vector of trivially copyable values that lives on the stack
// up to N elements and moves to the heap beyond.  lib/'s algorithms keep the flat
// modes of a layout in one, so an operation allocates nothing for the usual sizes.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace cutevis {

template <class T, size_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVec holds plain values");

 public:
  SmallVec() = default;
  SmallVec(const SmallVec& o) { append(o.data(), o.size()); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      size_ = 0;
      append(o.data(), o.size());
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void push_back(T x) {  // by value: a small T arrives in registers
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = x;
  }
  void append(const T* p, size_t n) {
    if (size_ + n > capacity_) grow(size_ + n);
    if (n <= 4) {  // the usual few: no call to memcpy
      for (size_t i = 0; i < n; ++i) data_[size_ + i] = p[i];
    } else {
      std::memcpy(static_cast<void*>(data_ + size_), p, n * sizeof(T));
    }
    size_ += n;
  }
  void resize(size_t n) {  // new elements are left uninitialized
    if (n > capacity_) grow(n);
    size_ = n;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void erase(size_t i) {
    T* d = data();
    std::memmove(static_cast<void*>(d + i), d + i + 1, (size_ - i - 1) * sizeof(T));
    --size_;
  }

 private:
  __attribute__((noinline)) void grow(size_t need) {
    size_t cap = capacity_ * 2 > need ? capacity_ * 2 : need;
    std::unique_ptr<T[]> fresh(new T[cap]);
    if (size_) std::memcpy(static_cast<void*>(fresh.get()), data(), size_ * sizeof(T));
    heap_ = std::move(fresh);
    data_ = heap_.get();
    capacity_ = cap;
  }

  T* data_ = inline_;  // inline_ or heap_: one load per access, no test
  size_t size_ = 0;
  size_t capacity_ = N;
  std::unique_ptr<T[]> heap_;
  T inline_[N];
};

}  // namespace cutevis
