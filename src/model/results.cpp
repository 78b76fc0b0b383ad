// Shapes of the result tables (see results.h).
#include "model/results.h"

#include <algorithm>

namespace normlab::model {

const char* element_type_name(ElementType type) {
  switch (type) {
    case ElementType::kFloat32:
      return "float32";
    case ElementType::kInt32:
      return "int32";
    case ElementType::kUint32:
      return "uint32";
    case ElementType::kFloat64:
      return "float64";
  }
  return "";
}

std::size_t element_size(ElementType type) { return type == ElementType::kFloat64 ? 8 : 4; }

const NamedAxis* find_named_axis(std::string_view symbol) {
  for (const NamedAxis& axis : kNamedAxes) {
    if (symbol == axis.symbol) return &axis;
  }
  return nullptr;
}

bool parse_shape(Shape* shape, const char* text) {
  *shape = Shape{};
  const std::string_view s = text == nullptr ? "" : text;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ' ') {
      i++;
      continue;
    }
    const std::size_t end = std::min(s.find(' ', i), s.size());
    if (shape->rank == kMaxRank) return false;
    shape->symbols[shape->rank++] = s.substr(i, end - i);
    i = end;
  }
  return true;
}

int DimValues::size_of(std::string_view symbol) const {
  for (int k = 0; k < count; k++) {
    if (symbols[k] == symbol) return values[k];
  }
  const NamedAxis* axis = find_named_axis(symbol);
  return axis == nullptr ? -1 : axis->size;
}

long long element_count(const char* shape, const DimValues& dims) {
  Shape parsed;
  if (!parse_shape(&parsed, shape)) return -1;
  long long n = 1;
  for (int k = 0; k < parsed.rank; k++) {
    const int size = dims.size_of(parsed.symbols[k]);
    if (size < 0) return -1;
    n *= size;
  }
  return n;
}

}  // namespace normlab::model
