// The checks every run of the events query makes, in one process or across ranks: the events'
// shapes and dtypes (the global ones of distributed events) and the query's numbers. Each throws
// a typed error saying what was expected and what was given.
#pragma once

#include "switchyard/apps/query.hpp"

namespace switchyard::apps::query {

void check_run(const Shape& values, DType values_dtype, const Shape& weights, DType weights_dtype,
               const Query& query);

}  // namespace switchyard::apps::query
