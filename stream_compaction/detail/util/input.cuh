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

// What a device API hands its dispatch: a contiguous input (a pointer, thrust::device_ptr, what
// unwrap_input unwraps) as a pointer to const, so that T * and const T * take one path and one
// kernel; any other input unwrapped as it is.
template <class Input>
auto read_only_input(Input input) {
    const auto unwrapped = unwrap_input(input);
    using Unwrapped = std::remove_cv_t<decltype(unwrapped)>;
    if constexpr (std::is_pointer_v<Unwrapped>)
        return static_cast<const std::remove_pointer_t<Unwrapped> *>(unwrapped);
    else
        return unwrapped;
}

}  // namespace detail
}  // namespace StreamCompaction
