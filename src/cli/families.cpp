#include "families.hpp"

#include <memory>

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

AnyFamily any_family(const FamilyChoice& choice) {
  std::unique_ptr<AnyFamily> family;
  visit_family(choice, [&](const auto& f) {
    using Family = std::decay_t<decltype(f)>;
    if constexpr (recur::impl::is_three_term_family<Family>::value &&
                  !recur::impl::has_exponent<Family>::value) {
      family = std::make_unique<AnyFamily>(f);
    } else {
      throw UsageError(choice.name +
                       " is no polynomial family; a basis takes the three-term families (every "
                       "family but power_sums and hermite_function)");
    }
  });
  return *family;
}

}  // namespace recur::cli
