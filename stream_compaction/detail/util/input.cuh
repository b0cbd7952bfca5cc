#pragma once
// Inputs beyond raw pointers (issue #43): any random-access iterator whose operator[] works on the
// device (Thrust's counting, constant, transform, zip iterators, ...). A contiguous one (a raw
// pointer, thrust::device_ptr, what thrust::is_contiguous_iterator accepts) is unwrapped to its raw
// pointer, which keeps the vectorized paths; any other takes the portable path, an item at a time.
#include <thrust/type_traits/unwrap_contiguous_iterator.h>

#include <iterator>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// The items an input iterator reads (an iterator's value_type, without const).
template <class Input>
using input_value_t = std::remove_cv_t<typename std::iterator_traits<Input>::value_type>;

// The raw pointer under a contiguous input, else the input itself.
template <class Input>
auto unwrap_input(Input input) {
    return ::thrust::try_unwrap_contiguous_iterator(input);
}

template <class Input>
using unwrapped_input_t = decltype(unwrap_input(std::declval<Input>()));

}  // namespace detail
}  // namespace StreamCompaction
