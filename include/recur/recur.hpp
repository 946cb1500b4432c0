#ifndef RECUR_RECUR_HPP
#define RECUR_RECUR_HPP

/// recur: batched recurrences on Kokkos. One include for the whole public API.

#include <recur/ceiling.hpp>
#include <recur/config.hpp>
#include <recur/evaluate.hpp>
#include <recur/families.hpp>
#include <recur/fit.hpp>
#include <recur/for_each_slice.hpp>
#include <recur/gauss.hpp>
#include <recur/math.hpp>
#include <recur/multi_index.hpp>
#include <recur/npy.hpp>
#include <recur/policies.hpp>
#include <recur/product_basis.hpp>
#include <recur/project.hpp>
#include <recur/series.hpp>
#include <recur/slice.hpp>
#include <recur/stream.hpp>
#include <recur/version.hpp>

#endif
