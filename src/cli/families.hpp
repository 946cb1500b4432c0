#ifndef RECUR_CLI_FAMILIES_HPP
#define RECUR_CLI_FAMILIES_HPP

// The one place where the command's family names meet recur's family types:
// a table of (name, type, parameters) and visit_family, which makes the
// family a name asks for and calls a generic visitor with it. Every
// subcommand goes through it.

#include "errors.hpp"

#include <recur/families.hpp>
#include <recur/product_basis.hpp>

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace recur::cli {

/// Which of --alpha, --beta, --lambda a family takes.
enum class Parameters { None, Alpha, AlphaBeta, Lambda };

/// A family's name on the command line and its parameters.
struct FamilyChoice {
  std::string name;
  std::optional<double> alpha, beta, lambda;
};

template <class Family, Parameters P = Parameters::None>
struct FamilyEntry {
  using type                            = Family;
  static constexpr Parameters parameters = P;
  const char* name;
  const char* description;
};

inline const auto family_table = std::make_tuple(
    FamilyEntry<PowerSums>{"power_sums", "x + x^2 + ... + x^(n+1)"},
    FamilyEntry<Monomials>{"monomials", "x^n"},
    FamilyEntry<HermiteE>{"hermite_e", "probabilists' Hermite He_n"},
    FamilyEntry<HermiteENormalized>{"hermite_e_normalized", "He_n / sqrt(n!)"},
    FamilyEntry<Hermite>{"hermite", "physicists' Hermite H_n"},
    FamilyEntry<HermiteNormalized>{"hermite_normalized",
                                   "H_n / sqrt(2^n n!)"},
    FamilyEntry<HermiteFunction>{"hermite_function",
                                 "Hermite functions psi_n, orthonormal on the real line"},
    FamilyEntry<Legendre>{"legendre", "Legendre P_n"},
    FamilyEntry<LegendreNormalized>{"legendre_normalized", "sqrt(2n+1) P_n"},
    FamilyEntry<ChebyshevT>{"chebyshev_t", "Chebyshev T_n"},
    FamilyEntry<ChebyshevTNormalized>{"chebyshev_t_normalized",
                                      "T_0, sqrt(2) T_n"},
    FamilyEntry<ChebyshevU>{"chebyshev_u", "Chebyshev U_n"},
    FamilyEntry<ChebyshevUNormalized>{"chebyshev_u_normalized",
                                      "U_n (already orthonormal)"},
    FamilyEntry<Laguerre, Parameters::Alpha>{"laguerre", "generalized Laguerre L_n^(alpha)"},
    FamilyEntry<LaguerreNormalized, Parameters::Alpha>{"laguerre_normalized",
                                    "orthonormal L_n^(alpha)"},
    FamilyEntry<Jacobi, Parameters::AlphaBeta>{"jacobi", "Jacobi P_n^(alpha, beta)"},
    FamilyEntry<JacobiNormalized, Parameters::AlphaBeta>{"jacobi_normalized",
                                  "orthonormal P_n^(alpha, beta)"},
    FamilyEntry<Gegenbauer, Parameters::Lambda>{"gegenbauer", "Gegenbauer C_n^(lambda)"},
    FamilyEntry<GegenbauerNormalized, Parameters::Lambda>{"gegenbauer_normalized",
                                      "orthonormal C_n^(lambda)"});

/// Calls f(entry) for every entry of the table.
template <class F>
void for_each_family(F&& f) {
  std::apply([&](const auto&... entry) { (f(entry), ...); }, family_table);
}

/// Every family name, separated by ", ".
std::string family_names();

/// Which families take `parameter` ("alpha", "beta" or "lambda"), as a list
/// of names.
std::string families_taking(const char* parameter);

namespace impl {

inline bool takes(Parameters parameters, const char* parameter) {
  const std::string p = parameter;
  switch (parameters) {
    case Parameters::Alpha: return p == "alpha";
    case Parameters::AlphaBeta: return p == "alpha" || p == "beta";
    case Parameters::Lambda: return p == "lambda";
    default: return false;
  }
}

// The family with the choice's parameters (the type's defaults where one is
// not given); its constructor checks them (std::invalid_argument).
template <class Entry>
typename Entry::type make_family(const Entry& entry, const FamilyChoice& choice) {
  using Family = typename Entry::type;
  for (const auto& [parameter, value] : {std::pair<const char*, const std::optional<double>*>{
                                             "alpha", &choice.alpha},
                                         {"beta", &choice.beta},
                                         {"lambda", &choice.lambda}})
    if (value->has_value() && !takes(Entry::parameters, parameter))
      throw UsageError(std::string(entry.name) + " takes no --" + parameter + "; --" +
                       parameter + " is for " + families_taking(parameter));
  if constexpr (Entry::parameters == Parameters::Alpha) {
    return Family(choice.alpha.value_or(0.0));
  } else if constexpr (Entry::parameters == Parameters::AlphaBeta) {
    return Family(choice.alpha.value_or(0.0), choice.beta.value_or(0.0));
  } else if constexpr (Entry::parameters == Parameters::Lambda) {
    return Family(choice.lambda.value_or(0.5));
  } else {
    return Family{};
  }
}

}  // namespace impl

/// Makes the family `choice` names and calls visitor(family). Throws
/// UsageError for an unknown name or a parameter the family does not take,
/// and std::invalid_argument (from the family) for an invalid value.
template <class Visitor>
void visit_family(const FamilyChoice& choice, Visitor&& visitor) {
  bool found = false;
  for_each_family([&](const auto& entry) {
    if (found || choice.name != entry.name) return;
    found = true;
    visitor(impl::make_family(entry, choice));
  });
  if (!found)
    throw UsageError("unknown family '" + choice.name + "'; the families are " + family_names());
}

/// The family `choice` names as one dimension of a product basis. Throws
/// UsageError for a name or parameter visit_family refuses, and for the
/// families that are no polynomials (power_sums, hermite_function).
AnyFamily any_family(const FamilyChoice& choice);

}  // namespace recur::cli

#endif
