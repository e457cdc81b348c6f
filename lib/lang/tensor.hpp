// cutevis — CuTe's Tensor as kernels write it: an iterator and a layout.
//
//   make_tensor(make_gmem_ptr<half_t>(ptr_A), make_shape(M,K), make_stride(K,_1{}))
//   make_tensor(make_smem_ptr(smem.A.data()), SmemLayoutA{})      make_tensor<float>(Shape<_4,_8>{})
//   make_identity_tensor(make_shape(_128{},_64{}))                 local_tile(mA, TileShape{}, coord, Step<_1,X,_1>{})
//   local_partition(gA, Layout<Shape<_32,_8>>{}, thread_idx)       tensor(_,_,k)   tensor.layout()
//
// cutevis has no memory: a pointer is its name as written (`ptr_A`) and an element
// offset, so a tensor prints as CuTe prints it with the name where CuTe prints an
// address: `gmem_ptr[16b](ptr_A+64) o (_64,_32):(K,_1)`.  An identity tensor's
// iterator is CuTe's ArithTuple coordinate: `ArithTuple(_0,_0) o (_128,_64):(_1@0,_1@1)`.
#pragma once

#include <memory>
#include <string>

#include "lib/lang/expr.hpp"

namespace cutevis {

struct Tensor {
  enum class Space { kPointer, kGmem, kSmem, kRmem, kTmem, kCounting, kDescriptor };  // kDescriptor: GMMA/UMMA
  Space space = Space::kPointer;
  std::string base;    // the pointer as written ("ptr_A"), "" for an owning (register) tensor
  ValueType element;   // bits == 0: the element type is not known (make_tensor(ptr, ...) of an untyped name)
  int64_t offset = 0;  // pointer iterators: elements past `base`
  IntTuple coord;      // counting iterators: the ArithTuple coordinate
  AnyLayout layout;
  bool swizzled = false;  // smem_ptr_swizzle: make_tensor(smem_ptr, Sw o smem_ptr_flag o L) moves the swizzle
  Swizzle swizzle;        // into the pointer (CuTe's pointer_flagged.hpp) and keeps L as the layout
  // What CuTe's print does not say: whose tensor this is ("thread 0's partition_D: every thread's has
  // this layout, at its own offset"); printed on a line of its own after CuTe's form
  std::string note;
};

// CuTe's print(Tensor): `gmem_ptr[16b](ptr_A) o (M,K):(K,_1)` (underscore: CuTe's `_N` static marks).
std::string to_string(const Tensor& t, bool underscore = true);

const Tensor* as_tensor(const Value& v);
Value tensor_value(Tensor t);

// A tensor argument as kernels pass one: a tensor, or a bare layout (a tensor whose
// iterator is unknown: offsets still follow CuTe, the pointer prints as `?`).
Tensor tensor_from(const Value& v);

// tensor(coord) with underscores: CuTe's slice_and_offset (the offset moves the iterator;
// a composed layout keeps it in its own offset, as CuTe does).
Tensor slice(const Tensor& t, const Value& coord);
// layout(coord) with underscores: the sliced layout (CuTe drops the offset).
AnyLayout slice(const AnyLayout& l, const Value& coord);

// local_tile(tensor, tiler, coord[, proj]) and local_partition(tensor, tile, index[, proj]).
Tensor local_tile(const Tensor& t, const Value& tiler, const Value& coord);
Tensor local_partition(const Tensor& t, const Layout& tile, int64_t index);

void register_tensor_names(Registry& r);  // called by register_cpp_syntax

}  // namespace cutevis
