#include "ops/nodes.hpp"

#include <string>

namespace switchyard {

expr::NodePtr node_of(const Array& a) {
  if (is_complex(a.dtype()))
    throw DTypeError("an elementwise operation or reduction of a " + std::string(name(a.dtype())) +
                     " array: complex arrays take " + std::string(kComplexOperations) +
                     "; apply others to real(a) and imag(a)");
  if (const expr::NodePtr& n = a.node()) return n;
  return expr::Node::leaf({a.buffer(), a.dtype(), a.shape(), a.strides(), a.offset()});
}

Array array_of(const runtime::View& value) {
  return Array(value.buffer, value.dtype, value.shape, value.strides, value.offset);
}

}  // namespace switchyard
