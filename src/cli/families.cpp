#include "families.hpp"

namespace recur::cli {

std::string family_names() {
  std::string names;
  for_each_family([&](const auto& entry) {
    if (!names.empty()) names += ", ";
    names += entry.name;
  });
  return names;
}

std::string families_taking(const char* parameter) {
  std::string names;
  for_each_family([&](const auto& entry) {
    using Entry = std::decay_t<decltype(entry)>;
    if (!impl::takes(Entry::parameters, parameter)) return;
    if (!names.empty()) names += ", ";
    names += entry.name;
  });
  return names;
}

}  // namespace recur::cli
