// cutevis — C++ as kernels write it: operators on integers, `X::value`, casts, and the
// type-level helpers of CuTe and the standard library (conditional_t, sizeof_bits, ...).
//
//   Int<bM + 4>{}    (WarpShape_M != 1) * NumThreadsPerWarp    Int<(size<0>(T{}) < 128) ? 1 : 2>{}
//   sizeof_bits<half_t>::value    conditional_t<(bK > 32), A, B>    ComposedLayout<Swizzle<3,4,3>,
//   smem_ptr_flag_bits<16>, L>{}
#pragma once

#include "lib/lang/expr.hpp"

namespace cutevis {

// The integer result of C++ arithmetic on the given operands.  Every integer an operator
// makes is made here, so that a property of integers (CuTe's static vs dynamic: static op
// static is static, a dynamic operand makes the result dynamic) is decided in one place.
Value integer_result(int64_t value, const Value& a, const Value* b = nullptr);

Value eval_operator(Evaluator& ev, const Node& n);                    // Node::Kind::kOperator
Value eval_scope(Evaluator& ev, const Node& n);                       // Node::Kind::kScope: X::value, X::type
Value cast_value(Evaluator& ev, const Node& n, const ValueType& to);  // int(6), static_cast<int>(x)

// T{}: the object C++ value-initializes.  An integer type's object is a run-time 0, and so are
// the integer members of a type-level tuple: Stride<int64_t, _1>{} is (0,_1), which a constexpr
// function reads (`size<0>(GmemStride{}) == 1` is false there).  Anything else is its own value.
Value value_initialized(const Value& v);

// UMMA::tile_to_mma_shape(atom, ((MMA_M,MMA_N),M_MMAs,N_MMAs,...), order): the atom tiled to
// the MMA's tile, ((MMA_M,MMA_N),M_MMAs,N_MMAs,...); no order is column-major.
AnyLayout tile_to_mma_shape(const AnyLayout& atom, const IntTuple& mma_tile_shape, const IntTuple* order);

// CuTe's owning arrays, the storage a kernel's SharedStorage holds: cute::array<T, N>
// (cute/container/array.hpp: T[N], alignof(T); N = 0 is an empty struct, one byte),
// cute::array_aligned<T, N, A = 16> (`struct alignas(A) array_aligned : array<T, N>`) and
// cute::ArrayEngine<T, N> (cute/tensor_impl.hpp: for a whole-byte T it is array_aligned<T, N>).
// sizeof is the elements' bytes (at least one) rounded up to the alignment, max(A, alignof(T)).
class ArrayStorageType : public Object {
 public:
  // `spelled` is the template as CuTe names it: "array", "array_aligned", "ArrayEngine"
  ArrayStorageType(std::string spelled, ValueType element, int64_t count, int64_t element_align, int64_t array_align);
  std::string kind() const override { return "class"; }
  std::string to_string() const override;  // ArrayEngine<half_t,16384>, array_aligned<half_t,16384,128>
  const ValueType& element() const { return element_; }
  int64_t count() const { return count_; }
  int64_t size() const { return size_; }  // bytes
  int64_t align() const { return align_; }

 private:
  std::string spelled_;
  ValueType element_;
  int64_t count_, size_, align_, array_align_;
};

void register_cpp_syntax(Registry& r);  // called by register_algebra

}  // namespace cutevis
