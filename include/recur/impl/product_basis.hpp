#ifndef RECUR_IMPL_PRODUCT_BASIS_HPP
#define RECUR_IMPL_PRODUCT_BASIS_HPP

// The kernels of recur::evaluate and recur::series for product bases
// (recur/product_basis.hpp; docs/multivariate.md says how they run).
//
// A team takes a block of B samples and first fills their univariate
// tables, p^(k)_n(xi_k) / p^(k)_0 for every dimension k and n up to the
// set's largest degree in k, into team scratch (a table per term, the B
// samples side by side: no bank conflicts; ProductTables). Then:
//  - GPUs (a team of up to 128 samples): where Psi's columns are
//    contiguous (LayoutLeft), the walk: depth first over the trie of the
//    multi-indices (its program in shared memory), each value its parent's
//    times one table entry, stored as it is made, two adjacent samples a
//    thread (ProductTables::walk, ProductBasisFunctor::walk_block; series
//    sum the values the same way, a sample a thread). Elsewhere each value
//    is the product of the table entries its multi-index names (only the
//    dimensions of degree > 0: at most p factors, whatever d is), written
//    in the order of Psi's memory so that the stores coalesce: for
//    LayoutRight a thread a function, its factors' offsets decoded once
//    (ProductBasisFunctor::rows_block), or for double Psi a thread a
//    16-byte Pack of a row's functions (units_block).
//  - CPUs (a team is one thread): the tables in the lanes' vectors
//    (ProductTables::lane_rows), then, where the basis has a program, the
//    walk, 32 samples at a time in vectors
//    (ProductTables::host_walk): columns stored as each function's values
//    are made (ProductBasisFunctor::host_walk_block), rows turned in
//    registers a vector of rows at a time through an L1 buffer
//    (host_walk_rows), or, for float tables where the build has AVX-512,
//    made a sample at a time by in-register lookups of its table entries
//    (host_lookup_rows); elsewhere every function's values of the block, each
//    from its parent's with one multiply (ProductTables::product), in runs
//    over the samples that vectorize (host_block). Streamed for large
//    outputs.

#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/cpu_lanes.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/numbers.hpp>
#include <recur/impl/stores.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/multi_index.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace recur::impl {

struct NoGradient {};

// A basis' tables and multi-indices in MemorySpace. Dimension k's steps are
// coefficients[step_offset[k] .. step_offset[k+1]), its terms (one more)
// the scratch tables term_offset[k] .. term_offset[k+1]. Function j's
// factors are entries factor_offset[j] .. factor_offset[j+1]: the scratch
// table factor_term[e] of dimension factor_dim[e], dimensions increasing.
// parent[j] is the function whose multi-index is alpha_j with its last
// non-zero entry made 0, where the set has it before j (every total,
// tensor and hyperbolic set does): Psi_j = Psi_parent times one factor, the
// last of its list. -1 for alpha = 0 and where the set has no such function.
template <class W, class MemorySpace>
struct ProductBasisData {
  Kokkos::View<char*, MemorySpace> storage;  // the one allocation the views below point into
  Kokkos::View<ThreeTermCoefficients<W>*, MemorySpace> coefficients;
  Kokkos::View<int*, MemorySpace> step_offset, term_offset;
  Kokkos::View<unsigned char*, MemorySpace> large, zero_b;
  Kokkos::View<std::int64_t*, MemorySpace> factor_offset;
  Kokkos::View<int*, MemorySpace> factor_term, factor_dim;
  Kokkos::View<int*, MemorySpace> parent;
  // Recipes (ProductStructure): P x words; words = 0 where the set has none.
  Kokkos::View<std::uint64_t*, MemorySpace> recipe;
  int words = 0;
  // The walk (ProductStructure::program): program.size() - 2 steps and two
  // trailing 0s; walkable = false where the set has none.
  Kokkos::View<std::uint64_t*, MemorySpace> program;
  int roots = 0, root_column = -1;
  bool walkable = false, closed = false;
  int terms = 0;  // all dimensions' terms, the tables per sample
  // The lookups (ProductStructure): lookup_table (the slots' tables) and
  // lookup; lookup_factors = 0 where the set has none.
  Kokkos::View<int*, MemorySpace> lookup_table;
  Kokkos::View<std::int32_t*, MemorySpace> lookup;
  int lookup_factors = 0;
};

// The set's multi-indices as the kernels read them (ProductBasisData's
// offsets, factors and parents, and each dimension's terms: its largest
// degree + 1), made once on the host when a ProductBasis is made.
struct ProductStructure {
  std::vector<int> terms, term_offset, step_offset;  // d, d + 1, d + 1
  std::vector<std::int64_t> factor_offset;          // P + 1
  std::vector<int> factor_term, factor_dim, parent;
  // Each function's factors as table numbers of 16 bits, four to a word,
  // padded with the table of ones (number terms + 1), where no function has
  // more than max_recipe factors: what the value-by-value kernels read, one
  // or two loads a function in place of offsets and a list. Else empty,
  // words = 0.
  static constexpr int max_recipe = 8;
  std::vector<std::uint64_t> recipe;
  int words = 0;
  // The walk: the trie of the multi-indices' non-zero entries in dimension
  // order (a node's value is its parent's times one table entry, the root's
  // the sample's base), in depth-first order, a step a node: its table
  // number (bits 0-15), its children (16-31) and its function + 1 (32-63;
  // 0 for a node that is only on the way to others). The walk computes the
  // same products as the recipes, in the same order: the same values, one
  // multiply and one table entry each. roots: the root's children;
  // root_column: the function of alpha = 0, or -1. Empty where the walk does
  // not apply: paths longer than max_depth (functions with more non-zero
  // entries), or too many tables or children for 16 bits.
  // closed: every node is a function (every prefix of a multi-index's
  // non-zero entries is in the set, as in total, tensor and hyperbolic
  // sets): the walk stores at every step.
  static constexpr int max_depth = 8;
  std::vector<std::uint64_t> program;
  int roots = 0, root_column = -1;
  bool closed = false;
  // The lookups (rows made by ProductBasisFunctor::host_lookup_rows, on
  // CPUs with AVX-512 for float tables): the tables a sample's values read
  // (every recipe's factors, the base and the table of ones), where they
  // are at most lookup_slots, as the slots of one vector pair;
  // lookup_table[q] is slot q's table: slot 0 the ones (also where unused),
  // slot lookup_base the base. The functions in chunks of lookup_width, each with
  // lookup_factors factors (the most of any function's): factor f of chunk
  // c's functions is in the slots lookup[lookup_width * (c * lookup_factors
  // + f) ...] (the ones where a function has fewer factors, and for the
  // chunk's functions past P): the recipes' products, in their order.
  // Empty where the set has no recipes or its tables take more slots.
  static constexpr int lookup_slots = 32, lookup_width = 16, lookup_base = 1;
  std::vector<int> lookup_table;
  std::vector<std::int32_t> lookup;
  int lookup_factors = 0;

  explicit ProductStructure(const MultiIndexSet& set) {
    const int d = set.dimension(), P = set.size();
    terms.resize(std::size_t(d));
    term_offset.assign(std::size_t(d) + 1, 0);
    step_offset.assign(std::size_t(d) + 1, 0);
    for (int k = 0; k < d; ++k) {
      terms[std::size_t(k)]           = set.max_degree(k) + 1;
      term_offset[std::size_t(k) + 1] = term_offset[std::size_t(k)] + terms[std::size_t(k)];
      step_offset[std::size_t(k) + 1] = step_offset[std::size_t(k)] + terms[std::size_t(k)] - 1;
    }
    factor_offset.reserve(std::size_t(P) + 1);
    for (int j = 0; j < P; ++j) {
      factor_offset.push_back(std::int64_t(factor_term.size()));
      for (int k = 0; k < d; ++k)
        if (set(j, k) > 0) {
          factor_term.push_back(term_offset[std::size_t(k)] + set(j, k));
          factor_dim.push_back(k);
        }
    }
    factor_offset.push_back(std::int64_t(factor_term.size()));
    std::unordered_map<std::string, int> index;  // a row's bytes -> its j
    const auto key = [&](const int* row) {
      return std::string(reinterpret_cast<const char*>(row), sizeof(int) * std::size_t(d));
    };
    index.reserve(std::size_t(P));
    for (int j = 0; j < P; ++j) index.emplace(key(set.table().data() + std::size_t(j) * d), j);
    parent.assign(std::size_t(P), -1);
    std::vector<int> row(static_cast<std::size_t>(d));
    for (int j = 0; j < P; ++j) {
      const std::int64_t last = factor_offset[std::size_t(j) + 1] - 1;
      if (last < factor_offset[std::size_t(j)]) continue;  // alpha = 0
      std::copy(set.table().begin() + std::ptrdiff_t(j) * d,
                set.table().begin() + std::ptrdiff_t(j + 1) * d, row.begin());
      row[std::size_t(factor_dim[std::size_t(last)])] = 0;
      const auto found = index.find(key(row.data()));
      if (found != index.end() && found->second < j) parent[std::size_t(j)] = found->second;
    }
    int most = 0;
    for (int j = 0; j < P; ++j)
      most = std::max(most, int(factor_offset[std::size_t(j) + 1] - factor_offset[std::size_t(j)]));
    const int ones = term_offset.back() + 1;
    if (most <= max_recipe && ones <= 0xffff) {
      words = std::max((most + 3) / 4, 1);
      recipe.assign(std::size_t(P) * std::size_t(words), 0);
      for (int j = 0; j < P; ++j) {
        const std::int64_t e0 = factor_offset[std::size_t(j)], e1 = factor_offset[std::size_t(j) + 1];
        for (int f = 0; f < 4 * words; ++f) {
          const std::uint64_t table =
              std::uint64_t(e0 + f < e1 ? factor_term[std::size_t(e0 + f)] : ones);
          recipe[std::size_t(j) * std::size_t(words) + std::size_t(f / 4)] |= table << (16 * (f % 4));
        }
      }
    }
    if (most <= max_depth && ones <= 0xffff && std::int64_t(P) < 0xffffffffLL) make_program(P);
    if (words > 0) make_lookups(P, ones, most);
  }

 private:
  void make_lookups(int P, int ones, int most) {
    std::vector<int> slot(std::size_t(ones) + 1, -1);  // a table's slot
    std::vector<int> table{ones, ones - 1};             // the ones, the base
    for (const int t : factor_term)
      if (slot[std::size_t(t)] < 0) {
        slot[std::size_t(t)] = 0;
        table.push_back(t);
      }
    if (table.size() > std::size_t(lookup_slots)) return;
    std::sort(table.begin() + 2, table.end());
    for (std::size_t q = 0; q < table.size(); ++q) slot[std::size_t(table[q])] = int(q);
    table.resize(std::size_t(lookup_slots), ones);
    lookup_table = table;
    lookup_factors = std::max(most, 1);
    const int chunks = (P + lookup_width - 1) / lookup_width;
    for (int c = 0; c < chunks; ++c)
      for (int f = 0; f < lookup_factors; ++f)
        for (int j = c * lookup_width; j < (c + 1) * lookup_width; ++j) {
          const std::int64_t e = j < P ? factor_offset[std::size_t(j)] + f : 0;
          lookup.push_back(j < P && e < factor_offset[std::size_t(j) + 1]
                               ? slot[std::size_t(factor_term[std::size_t(e)])]
                               : 0);
        }
  }

  void make_program(int P) {
    // The trie: node 0 the root; children in order of first appearance.
    struct Node {
      int table, column;
      std::vector<int> children;
    };
    std::vector<Node> nodes{{0, -1, {}}};
    std::unordered_map<std::uint64_t, int> child;  // (node, table) -> node
    for (int j = 0; j < P; ++j) {
      int at = 0;
      for (std::int64_t e = factor_offset[std::size_t(j)]; e < factor_offset[std::size_t(j) + 1]; ++e) {
        const int table = factor_term[std::size_t(e)];
        const auto key  = (std::uint64_t(at) << 16) | std::uint64_t(table);
        const auto found = child.find(key);
        if (found != child.end()) {
          at = found->second;
          continue;
        }
        nodes.push_back({table, -1, {}});
        const int made = int(nodes.size()) - 1;
        nodes[std::size_t(at)].children.push_back(made);
        child.emplace(key, made);
        at = made;
      }
      if (at == 0) {
        root_column = j;
      } else {
        nodes[std::size_t(at)].column = j;
      }
    }
    closed = true;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].children.size() > 0xffff) return;
      if (n > 0 && nodes[n].column < 0) closed = false;
    }
    program.reserve(nodes.size());
    // Depth first, iteratively: the nodes to visit.
    std::vector<int> stack(nodes[0].children.rbegin(), nodes[0].children.rend());
    while (!stack.empty()) {
      const Node& node = nodes[std::size_t(stack.back())];
      stack.pop_back();
      program.push_back(std::uint64_t(node.table) | (std::uint64_t(node.children.size()) << 16) |
                        (std::uint64_t(node.column + 1) << 32));
      stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
    }
    program.push_back(0);  // read ahead by the last steps
    program.push_back(0);
    roots = int(nodes[0].children.size());
  }
};

// ProductBasisData in ExecSpace's memory: the structure copied there, and
// each dimension's coefficients, tabulate(k, terms, out) (in W).
template <class W, class ExecSpace, class Tabulate>
ProductBasisData<W, typename ExecSpace::memory_space> make_product_basis_data(
    const ExecSpace& space, const ProductStructure& structure, const Tabulate& tabulate) {
  using MemorySpace = typename ExecSpace::memory_space;
  const int d       = int(structure.terms.size());
  ProductBasisData<W, MemorySpace> data;
  data.terms = structure.term_offset.back();
  std::vector<ThreeTermCoefficients<W>> coefficients(static_cast<std::size_t>(structure.step_offset.back()));
  std::vector<unsigned char> large(static_cast<std::size_t>(d)), zero_b(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k) {
    const TableFlags flags = tabulate(k, structure.terms[std::size_t(k)],
                                      coefficients.data() + structure.step_offset[std::size_t(k)]);
    large[std::size_t(k)]  = flags.large;
    zero_b[std::size_t(k)] = flags.zero_b;
  }
  // Every array in one allocation and one copy a call (not a dozen of
  // each): `reserve` lays them out in `bytes`, 16-byte aligned (each at
  // least one entry), `place` points the views into the device copy.
  std::vector<std::pair<const void*, std::size_t>> arrays;  // (host data, bytes)
  std::size_t bytes = 0;
  const auto reserve = [&](const auto& from) {
    arrays.emplace_back(from.data(), sizeof(from[0]) * from.size());
    const std::size_t at = bytes;
    bytes += (sizeof(from[0]) * std::max<std::size_t>(from.size(), 1) + 15) / 16 * 16;
    return at;
  };
  const std::size_t at[] = {reserve(coefficients),         reserve(structure.step_offset),
                            reserve(structure.term_offset), reserve(large),
                            reserve(zero_b),               reserve(structure.factor_offset),
                            reserve(structure.factor_term), reserve(structure.factor_dim),
                            reserve(structure.parent),      reserve(structure.recipe),
                            reserve(structure.program),     reserve(structure.lookup_table),
                            reserve(structure.lookup)};
  std::vector<char> host(bytes);
  for (std::size_t a = 0; a < arrays.size(); ++a)
    if (arrays[a].second > 0) std::memcpy(host.data() + at[a], arrays[a].first, arrays[a].second);
  data.storage = Kokkos::View<char*, MemorySpace>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::product_basis"), bytes);
  Kokkos::deep_copy(space, data.storage,
                    Kokkos::View<const char*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        host.data(), bytes));
  std::size_t next = 0;
  const auto place = [&](auto& view, const auto& from) {
    using V = std::decay_t<decltype(view)>;
    view    = V(reinterpret_cast<typename V::pointer_type>(data.storage.data() + at[next++]),
                std::max<std::size_t>(from.size(), 1));
  };
  place(data.coefficients, coefficients);
  place(data.step_offset, structure.step_offset);
  place(data.term_offset, structure.term_offset);
  place(data.large, large);
  place(data.zero_b, zero_b);
  place(data.factor_offset, structure.factor_offset);
  place(data.factor_term, structure.factor_term);
  place(data.factor_dim, structure.factor_dim);
  place(data.parent, structure.parent);
  place(data.recipe, structure.recipe);
  place(data.program, structure.program);
  place(data.lookup_table, structure.lookup_table);
  place(data.lookup, structure.lookup);
  data.words       = structure.words;
  data.roots       = structure.roots;
  data.root_column = structure.root_column;
  data.walkable    = !structure.program.empty();
  data.closed      = structure.closed;
  data.lookup_factors = structure.lookup_table.empty() ? 0 : structure.lookup_factors;
  // The host buffer must outlive the (possibly asynchronous) copy.
  fence(space, "recur::evaluate: product basis upload");
  return data;
}

// What every product-basis kernel does first: the univariate tables of a
// team's block of samples, in scratch (see the top of this file).
// table[t * B + b] is term t of sample b; term `terms` is the sample's base
// (the product of the families' p_0, NaN where a coordinate is NaN).
template <class S, class W, class ExecSpace, class XView>
struct ProductTables {
  using MemorySpace = typename ExecSpace::memory_space;
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using ScratchView = Kokkos::View<S*, typename ExecSpace::scratch_memory_space,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  ProductBasisData<W, MemorySpace> data;
  XView X;
  S base;     // the product of the families' p_0
  int d;
  int block;  // B, the samples of a team
  int level;  // scratch level
  // On CPUs, whether the team keeps its samples' values of every function
  // (the parent chain, Tables::product): for up to max_chain functions,
  // whose P x B values and a staging buffer stay within a few MiB.
  bool chain = false;
  static constexpr int max_chain = 1 << 15;
  // Whether the kernel walks (the basis has a program and the kernel uses
  // it: run_product_kernel); on GPUs only where a team's copy of the
  // program (up to max_scratch_program steps) fits its shared memory.
  bool walks = false;
  // The samples a GPU thread walks (ProductBasisFunctor::walk_block): 1 or
  // 2; a team is then block / lanes threads.
  int lanes = 1;
  static constexpr std::size_t max_scratch_program = 2048;
  // GPUs, Psi's columns contiguous: the samples before column 0's first
  // warp-run boundary (stores.hpp, aligned_run_offset), whose blocks come
  // after the others, from team `aligned` on (first() below), so that a
  // warp's stores of a column start on such a boundary; 0 elsewhere.
  std::int64_t head = 0, aligned = 0;

  // A table's entries are `pitch` apart: B on CPUs; on GPUs B + 1, so that
  // threads reading different tables of one sample (a function each) read
  // different shared-memory banks, except where threads walk two adjacent
  // samples (lanes = 2): B, so that a thread's two entries of a table are
  // one aligned pair, one 16-byte load.
  static KOKKOS_FUNCTION int pitch_of(int block, int lanes) {
    return one_thread || lanes == 2 ? block : block + 1;
  }
  KOKKOS_FUNCTION int pitch() const { return pitch_of(block, lanes); }
  // Scratch for `tables` sets of tables (values, and derivatives): the
  // terms, the base and a table of ones (recipes' padding), each set
  // aligned to 16 bytes.
  static std::size_t scratch_bytes(int block, int terms, int tables) {
    return (sizeof(S) * std::size_t(pitch_of(block, 1)) * std::size_t(terms + 2) + 16) *
           std::size_t(tables);
  }
  KOKKOS_FUNCTION ScratchView allocate(const team_member& team) const {
    const std::size_t n = std::size_t(pitch()) * std::size_t(data.terms + 2);
    return ScratchView(static_cast<S*>(team.team_scratch(level).get_shmem_aligned(sizeof(S) * n, 16)), n);
  }
  // The walk's program: on GPUs the team's copy in shared memory (made
  // before fill's barrier: call this before fill), on CPUs the one in
  // memory; nullptr where the kernel does not walk.
  KOKKOS_FUNCTION const std::uint64_t* program(const team_member& team) const {
    if (!walks) return nullptr;
    if (one_thread) return data.program.data();
    const int steps = int(data.program.extent(0));
    auto* copy      = static_cast<std::uint64_t*>(
        team.team_scratch(level).get_shmem(sizeof(std::uint64_t) * std::size_t(steps)));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, steps),
                         [&](int q) { copy[q] = data.program(q); });
    return copy;
  }
  // The block's first sample and its number of samples.
  // Blocks from sample `head` on, then those of samples [0, head).
  KOKKOS_FUNCTION std::int64_t first(const team_member& team) const {
    const std::int64_t r = team.league_rank();
    return r < aligned ? head + r * block : (r - aligned) * block;
  }
  KOKKOS_FUNCTION int count(const team_member& team) const {
    const std::int64_t end = team.league_rank() < aligned ? std::int64_t(X.extent(0)) : head;
    return int(first(team) + block <= end ? block : end - first(team));
  }
  // Fills the tables (and the derivatives' where `gradient`), then a barrier.
  // `paired`: whether the kernel walks two samples a thread where lanes is 2
  // (compiled only into the kernels that may: the others need fewer
  // registers).
  template <bool gradient, bool paired = false>
  KOKKOS_FUNCTION void fill(const team_member& team, const ScratchView& table,
                            const ScratchView& dtable) const {
    const std::int64_t i0 = first(team);
    const int samples     = count(team);
    const std::size_t base_row = std::size_t(data.terms) * pitch();
    const std::size_t ones_row = base_row + pitch();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, samples), [&](int b) {
      table(base_row + b) = base;
      table(ones_row + b) = S(1);
    });
    // Two samples a thread where the walk takes two (lanes): b and b + half,
    // their steps side by side (one load of each step's coefficients, two
    // independent recurrences to hide each other's latency), their
    // coordinates loaded first, four dimensions at a time, into the tables
    // of term 0 (which the steps then overwrite): in Nsight Compute the fill
    // waited on each dimension's load of X in turn.
    const bool pairs = paired && !gradient && lanes == 2 && samples == block;
    // (The tables hold x exactly where they are double.)
    constexpr bool staged = !one_thread && sizeof(S) == sizeof(double);
    if constexpr (staged) {
      if (pairs) {
        const int half = samples / 2;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, half), [&](int h) {
          for (int k0 = 0; k0 < d; k0 += 4) {
            double x[4][2];
            for (int u = 0; u < 4; ++u)
              if (k0 + u < d) {
                x[u][0] = double(X(i0 + h, k0 + u));
                x[u][1] = double(X(i0 + h + half, k0 + u));
              }
            for (int u = 0; u < 4; ++u)
              if (k0 + u < d) {
                S* const at = &table(std::size_t(data.term_offset(k0 + u)) * pitch() + h);
                at[0]       = x[u][0];
                at[half]    = x[u][1];
              }
          }
        });
      }
    }
    for (int k = 0; k < d; ++k) {
      const int t0 = data.term_offset(k);
      const int n  = data.term_offset(k + 1) - t0;
      // (An unmanaged view of dimension k's steps: no reference counts.)
      using Kernel = ThreeTermKernel<W, MemorySpace>;
      const Kernel kernel{
          Kokkos::View<const ThreeTermCoefficients<W>*, MemorySpace>(
              data.coefficients.data() + data.step_offset(k), std::size_t(n > 1 ? n - 1 : 0)),
          constant<W>(1.0), {}, data.large(k) != 0, data.zero_b(k) != 0};
      S* const column = &table(std::size_t(t0) * pitch());
      // A CPU thread: the block's steps side by side (lane_rows), the
      // last samples by plain_rows, or in float by plain_columns (below).
      int done = 0;
      if constexpr (one_thread && !gradient) {
        done = lane_rows(kernel, i0, k, samples, column, n);
        if constexpr (!std::is_same_v<W, float>) {
          if (done < samples) plain_rows(kernel, i0 + done, k, samples - done, column + done, n);
          done = samples;
        }
        for (int b = 0; b < done; ++b) table(base_row + b) *= column[b];
        if (done == samples) continue;
      }
      if (pairs) {
        const int half = samples / 2;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, half), [&](int h) {
          S* const columns[2] = {column + h, column + h + half};
          double x[2];
          if constexpr (staged) {
            x[0] = double(columns[0][0]);  // (loaded above)
            x[1] = double(columns[1][0]);
          } else {
            x[0] = double(X(i0 + h, k));
            x[1] = double(X(i0 + h + half, k));
          }
          plain_columns<2>(kernel, x, columns, n);
          table(base_row + h) *= columns[0][0];
          table(base_row + h + half) *= columns[1][0];
        });
        continue;
      }
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, done, samples), [&](int b) {
        const double x[1] = {double(X(i0 + b, k))};
        if constexpr (gradient) {
          kernel.fill(x[0], Slice<S>(column + b, pitch(), n),
                      Slice<S>(&dtable(std::size_t(t0) * pitch() + b), pitch(), n));
        } else {
          S* const columns[1] = {column + b};
          plain_columns<1>(kernel, x, columns, n);
        }
        table(base_row + b) *= column[b];  // 1, or NaN outside the domain
      });
    }
    team.team_barrier();
  }
  // A CPU thread's table of one dimension: out[n * pitch() + b] = p_n of
  // sample b, n < terms, each step taken for all samples before the next
  // (loops over b that vectorize, in double or double-double). These are
  // kernel.fill's own steps (advance_as, as a plain and bounded block takes
  // them); where no state passes Range<W>::periodic_limit (these rows are
  // checked every few steps) no check of kernel.fill scales one, so the
  // values are its values, bit for bit. Rows where one
  // does, and rows checked every step (|x| > Range<W>::unchecked_x, NaN,
  // large coefficients), are filled again by kernel.fill. (The 1-D
  // evaluate's lockstep blocks took 35 % of the time of a product series
  // with d = 5, p = 4: made for long rows, not for 5 terms.)
  template <class Kernel>
  KOKKOS_FUNCTION void plain_rows(const Kernel& kernel, std::int64_t i0, int k, int samples, S* out,
                                  int terms) const {
    using state_type = typename Kernel::state_type;
    constexpr bool pair = std::is_same_v<W, DoubleDouble>;
    // The states in separate arrays of leading and trailing parts (an
    // array of pairs does not vectorize).
    alignas(64) double x[host_block], h0[host_block], h1[host_block];
    alignas(64) double l0[pair ? host_block : 1], l1[pair ? host_block : 1];
    alignas(64) int plain[host_block];
    const auto get = [&](const double* h, const double* l, int b) -> W {
      if constexpr (pair) {
        return W{h[b], l[b]};
      } else {
        (void)l;
        return h[b];
      }
    };
    const auto put = [&](double* h, double* l, int b, const W& v) {
      if constexpr (pair) {
        h[b] = v.hi;
        l[b] = v.lo;
      } else {
        (void)l;
        h[b] = v;
      }
    };
    for (int b = 0; b < samples; ++b) {
      x[b]     = double(X(i0 + b, k));
      plain[b] = int(!kernel.checks_every_step(x[b]));
      put(h0, l0, b, kernel.initial);
      put(h1, l1, b, W{});
      out[b] = S(to_double(kernel.initial));
    }
    const auto steps = [&](auto zero_b) {
      for (int n = 0; n + 1 < terms; ++n) {
        const auto step = kernel.load(n);
        S* row          = out + std::size_t(n + 1) * pitch();
        for (int b = 0; b < samples; ++b) {
          state_type s{get(h0, l0, b), get(h1, l1, b), 0};
          kernel.template advance_as<decltype(zero_b)::value>(x[b], step, s, BlockTag<true>{});
          put(h0, l0, b, s.u0);
          put(h1, l1, b, s.u1);
          plain[b] &= int(largest(s.u0) <= Range<W>::periodic_limit);
          row[b] = S(to_double(s.u0));
        }
      }
    };
    if (kernel.zero_b) {
      steps(std::true_type{});
    } else {
      steps(std::false_type{});
    }
    for (int b = 0; b < samples; ++b)
      if (!plain[b]) kernel.fill(x[b], Slice<S>(out + b, pitch(), terms));
  }
  // plain_rows' table in the CPU lanes' vectors (cpu_lanes::LaneSet: the
  // same steps, the same bits), G vectors of samples at a time, the states
  // in registers through the terms: only the table's values are stored
  // (plain_rows keeps its states in memory, three stores a step). Where a
  // lane passes Range<W>::periodic_limit or x needs checks, kernel.fill
  // again, as plain_rows does. Returns the samples done (whole groups; none
  // where the lanes do not run); the caller does the rest.
  template <class Kernel>
  KOKKOS_FUNCTION int lane_rows(const Kernel& kernel, std::int64_t i0, int k, int samples, S* out,
                                int terms) const {
    int b = 0;
#ifdef RECUR_IMPL_CPU_LANES
    if constexpr (is_lane_scan<Kernel>::value && !has_prefactor_v<Kernel> &&
                  std::is_same_v<S, std::conditional_t<std::is_same_v<W, float>, float, double>>) {
      // 32 samples in double and float (8 and 4 vectors), 16 in double-double.
      constexpr int G    = std::is_same_v<W, DoubleDouble> || std::is_same_v<W, float> ? 4 : 8;
      using Set          = cpu_lanes::LaneSet<Kernel, G>;
      using E            = typename Set::E;  // float or double: S
      using V            = cpu_lanes::Vec<E>;
      constexpr int L    = Set::L, n = G * L;
      const auto rules   = cpu_lanes::zero_rules(kernel, terms, false);  // (in a parallel region)
      const E first      = E(to_double(kernel.initial));
      const V limit      = cpu_lanes::splat(E(Range<W>::periodic_limit));
      const V unchecked  = cpu_lanes::splat(E(Range<W>::unchecked_x));
      using Mask         = decltype(limit < limit);
      // x of L samples from p, `stride` apart (X's values, float or double).
      const auto* const xs        = &X(i0, k);
      const std::ptrdiff_t stride = samples > 1 ? &X(i0 + 1, k) - xs : 1;
      for (; b + n <= samples; b += n) {
        Set set;
        // The lanes' start (kernel.start's p_0 and 0): a lane out of the
        // domain (|x| > 2^256, or 2^64 in float) or NaN is filled again below.
        cpu_lanes::each<G>([&](auto g) RECUR_LANES_INLINE {
          const auto* p = xs + (b + L * g) * stride;
          set.x[g]      = cpu_lanes::lanes<E>([&](int l) { return E(double(p[l * stride])); });
          set.a0[g]     = cpu_lanes::splat_number(kernel.initial);
          set.a1[g]     = cpu_lanes::splat_number(W{});
          set.ev[g]     = _mm256_setzero_si256();
        });
        for (int s = 0; s < n; ++s) out[b + s] = first;
        Mask fine[G];  // lanes that stayed within the limit, x needing no checks
        cpu_lanes::each<G>([&](auto g) RECUR_LANES_INLINE {
          fine[g] = (set.x[g] <= unchecked) & (set.x[g] >= -unchecked);  // (false for NaN)
        });
        const auto steps = [&](auto exact) RECUR_LANES_INLINE {
          for (int t = 1; t < terms; ++t) {
            set.template advance<decltype(exact)::value>(kernel, t);
            S* const row = out + std::size_t(t) * pitch() + b;
            cpu_lanes::each<G>([&](auto g) RECUR_LANES_INLINE {
              const V v = cpu_lanes::leading(set.a0[g]);
              cpu_lanes::store(row + L * g, v, false);
              fine[g] = fine[g] & (v <= limit) & (v >= -limit);  // (false for NaN)
            });
          }
        };
        if (set.zero_rule(rules)) {
          steps(std::true_type{});
        } else {
          steps(std::false_type{});
        }
        bool all = !kernel.large_coefficients;
        cpu_lanes::each<G>([&](auto g) RECUR_LANES_INLINE {
          all = all && _mm256_movemask_epi8(__m256i(fine[g])) == -1;
        });
        if (!all) {
          alignas(32) std::conditional_t<std::is_same_v<E, float>, std::int32_t, std::int64_t> ok[n];
          cpu_lanes::each<G>([&](auto g) RECUR_LANES_INLINE {
            _mm256_store_si256(reinterpret_cast<__m256i*>(ok + L * g), __m256i(fine[g]));
          });
          for (int s = 0; s < n; ++s)
            if (ok[s] == 0 || kernel.large_coefficients)
              kernel.fill(double(X(i0 + b + s, k)), Slice<S>(out + b + s, pitch(), terms));
        }
      }
    }
#else
    (void)kernel, (void)i0, (void)k, (void)samples, (void)out, (void)terms;
#endif
    return b;
  }
  // A GPU thread's L samples (1 or 2; and a CPU's one in W = float): the
  // table of sample l, columns[l][n * pitch()] = p_n, by plain_rows' steps
  // (each step's coefficients loaded once for the L samples), and by
  // kernel.fill where a state passes Range<W>::periodic_limit or x needs
  // checks: the same values (plain_rows says why).
  template <int L, class Kernel>
  KOKKOS_FUNCTION void plain_columns(const Kernel& kernel, const double (&x)[L],
                                     S* const (&columns)[L], int terms) const {
    static_assert(L == 1 || L == 2, "recur: one or two samples a thread");
#ifdef __CUDA_ARCH__
    if constexpr (L == 2) {
      // Two samples a thread only where the kernel walks, its tables in
      // shared memory; said, so that the steps' coefficient loads (global)
      // can go ahead of the stores to the tables.
      __builtin_assume(__isShared(columns[0]) && __isShared(columns[1]));
      __builtin_assume(__isGlobal(kernel.coefficients.data()));
    }
#endif
    typename Kernel::state_type s[L];
    bool plain[L];
    for (int l = 0; l < L; ++l) {
      plain[l]      = !kernel.checks_every_step(x[l]);
      s[l]          = {kernel.initial, W{}, 0};
      columns[l][0] = S(to_double(kernel.initial));
    }
    const std::size_t next = std::size_t(pitch());
    const auto steps       = [&](auto zero_b) {
      for (int n = 0; n + 1 < terms; ++n) {
        // One sample stops at its first state past the limit (or does not
        // start, where x needs checks): with two, both go on (a row that
        // needs kernel.fill is rare, and filled again below).
        if constexpr (L == 1) {
          if (!plain[0]) break;
        }
        const auto step = kernel.load(n);
        for (int l = 0; l < L; ++l) {
          kernel.template advance_as<decltype(zero_b)::value>(x[l], step, s[l], BlockTag<true>{});
          plain[l] = plain[l] && largest(s[l].u0) <= Range<W>::periodic_limit;
          columns[l][std::size_t(n + 1) * next] = S(to_double(s[l].u0));
        }
      }
    };
    if (kernel.zero_b) {
      steps(std::true_type{});
    } else {
      steps(std::false_type{});
    }
    // (Each sample's fill in its own code: with a loop over l the compiler
    // kept the states in a stack array indexed at run time.)
    if (!plain[0]) kernel.fill(x[0], Slice<S>(columns[0], pitch(), terms));
    if constexpr (L == 2) {
      if (!plain[1]) kernel.fill(x[1], Slice<S>(columns[1], pitch(), terms));
    }
  }
  // On CPUs a team is one thread and holds up to host_block samples; it
  // keeps every function's values of all of them in `products` (P x width,
  // width the block, plus row_pad where rows are contiguous in memory: they
  // are read across the functions, and a width of 512 doubles, 4 KiB, put
  // those reads in the same cache sets). Rows are stored in runs of row_run
  // samples.
  static constexpr bool one_thread =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;
  static constexpr int host_block = 512;
  static constexpr int row_run    = 32;
  static constexpr int row_pad    = 4;

  // The host's samples a team: for the chain (host_block), up to 512, where
  // their P values stay within 512 KiB (half a core's L2 cache here), at
  // least 8; where the thread walks (`walks`), a multiple of the walk's 32
  // samples, at least 64, P x B within 16 Ki: 128 samples at P = 126, whose
  // tables (27 x 128 doubles at d = 5, p = 4) stay in the L1 cache (float
  // Psi LayoutLeft 17.7-18.2 ms against 18.7-19.4 with 64 samples, M = 2^20,
  // Intel Xeon VM; double alike).
  static int host_samples(int P, bool walks) {
    const int fit = walks ? int((std::int64_t(1) << 14) / std::max(P, 1)) / 32 * 32
                          : int((std::int64_t(1) << 16) / std::max(P, 1)) / 8 * 8;
    return std::max(walks ? 64 : 8, std::min(host_block, fit));
  }
  KOKKOS_FUNCTION ScratchView allocate_products(const team_member& team, int P, int width) const {
    return ScratchView(team.team_scratch(level), std::size_t(width) * std::size_t(P));
  }
  // products[j * width + b] = Psi_j of samples b0 + b, b < n, in order of
  // j: from its parent's values and one factor where it has a parent (one
  // multiply a value), else from all of its factors. The runs over b
  // vectorize.
  KOKKOS_FUNCTION S* product(const ScratchView& table, const ScratchView& products, int width,
                             int b0, int n, int j) const {
    S* out                 = &products(std::size_t(j) * width);
    const std::int64_t e0  = data.factor_offset(j), e1 = data.factor_offset(j + 1);
    const int up           = data.parent(j);
    const S* from          = up >= 0 ? &products(std::size_t(up) * width)
                                     : &table(std::size_t(data.terms) * pitch() + b0);
    const std::int64_t own = up >= 0 ? e1 - 1 : e0;
    if (own == e1) {
      for (int b = 0; b < n; ++b) out[b] = from[b];
      return out;
    }
    const S* row = &table(std::size_t(data.factor_term(own)) * pitch() + b0);
    for (int b = 0; b < n; ++b) out[b] = from[b] * row[b];
    for (std::int64_t e = own + 1; e < e1; ++e) {
      row = &table(std::size_t(data.factor_term(e)) * pitch() + b0);
      for (int b = 0; b < n; ++b) out[b] *= row[b];
    }
    return out;
  }
  // Sample b's base (the product of the families' p_0, NaN for a NaN sample).
  KOKKOS_FUNCTION S base_of(const ScratchView& table, int b) const {
    return table(std::size_t(data.terms) * pitch() + b);
  }
  // v times the factors e0 .. e1 - 1 of sample b but `skip` (v = its base:
  // Psi_j for the factors of j).
  KOKKOS_FUNCTION S times_factors(const ScratchView& table, int b, std::int64_t e0,
                                  std::int64_t e1, S v, std::int64_t skip = -1) const {
    for (std::int64_t e = e0; e < e1; ++e)
      if (e != skip) v *= table(std::size_t(data.factor_term(e)) * pitch() + b);
    return v;
  }
  // The walk (ProductStructure::program) for `lanes` samples b, b + 1, ...
  // (1 or 2): visit(j + 1, v) for every function j, in the program's order,
  // v[s] = Psi_j of sample b + s. The levels of the trie are the levels of
  // this recursion (walk_level), so that the path's values stay in
  // registers. Two samples a thread share the decoding of each step (one
  // step, two values). `paired`: b is even and pitch() even (lanes = 2), so
  // that the two samples' entries of a table are one aligned pair, loaded
  // at once. `closed` (ProductStructure): no step is only on the way to
  // others, so that none is tested. (On the H200, float, d = 5, p = 4,
  // LayoutLeft, 2^22 samples, in perf_tests/product_walk_study.cu: 0.66 ms
  // with one sample a thread, 0.62 with two, against 0.82 for the recipes'
  // four table entries a value. In the library, pairs loaded at once, steps
  // read ahead, no test in closed sets and the pairs' coordinates loaded
  // before their recurrences: 0.74 against 0.83 ms, docs/multivariate.md.)
  template <int lanes, bool paired = false, bool closed = false, class Visit>
  KOKKOS_FUNCTION void walk(const std::uint64_t* program, const ScratchView& table, int b,
                            const Visit& visit) const {
    S base[lanes];
    for (int s = 0; s < lanes; ++s) base[s] = base_of(table, b + s);
    if (data.root_column >= 0) visit(std::uint32_t(data.root_column + 1), base);
    const char* column = reinterpret_cast<const char*>(table.data() + b);
#ifdef __CUDA_ARCH__
    // Level-0 team scratch is shared memory (the tables, and the program:
    // run_product_kernel walks only there): said, so that their loads are
    // shared loads with 32-bit addresses, not generic ones.
    __builtin_assume(__isShared(column));
    __builtin_assume(__isShared(program));
#endif
    const std::uint32_t gap = std::uint32_t(pitch() * sizeof(S));
    Ahead<lanes> ahead{program[0], program[1], {}, 1};
    ahead.entries = entries<lanes, paired>(column, gap, ahead.next);
    walk_level<0, paired, closed>(program, ahead, std::uint32_t(data.roots), base, column, gap,
                                  visit);
  }
  struct alignas(2 * sizeof(S)) Pair {
    S v[2];
  };
  template <int lanes>
  struct Entries {
    S v[lanes];
  };
  // What the walk reads ahead: the next step and the one after it, the next
  // step's table entries, and the number of the step after it.
  template <int lanes>
  struct Ahead {
    std::uint64_t next, after;
    Entries<lanes> entries;
    std::uint32_t q;
  };
  // A step's table entries of the `lanes` samples.
  template <int lanes, bool paired>
  KOKKOS_FORCEINLINE_FUNCTION static Entries<lanes> entries(const char* column, std::uint32_t gap,
                                                            std::uint64_t step) {
    const S* t = reinterpret_cast<const S*>(column + (std::uint32_t(step) & 0xffffu) * gap);
    Entries<lanes> e;
    if constexpr (paired && lanes == 2) {
      const Pair pair = *reinterpret_cast<const Pair*>(t);
      e.v[0]          = pair.v[0];
      e.v[1]          = pair.v[1];
    } else {
      for (int s = 0; s < lanes; ++s) e.v[s] = t[s];
    }
    return e;
  }
  // One level of the trie: `count` nodes. A step's table entries are read
  // one step ahead and the step itself two ahead (the program ends in two
  // zero steps), so that no product waits for the load just before it (in
  // Nsight Compute the multiplies waited on their entries). The arithmetic
  // is 32-bit: the walk was bound by issuing instructions, the integer pipe
  // the busiest, when its addresses were formed in 64 bits.
  template <int level, bool paired, bool closed, int lanes, class Visit>
  KOKKOS_FORCEINLINE_FUNCTION void walk_level(const std::uint64_t* program, Ahead<lanes>& ahead,
                                              std::uint32_t count, const S (&parent)[lanes],
                                              const char* column, std::uint32_t gap,
                                              const Visit& visit) const {
    for (; count != 0; --count) {
      const std::uint64_t step = ahead.next;
      S v[lanes];
      for (int s = 0; s < lanes; ++s) v[s] = parent[s] * ahead.entries.v[s];
      ahead.next    = ahead.after;
      ahead.after   = program[++ahead.q];
      ahead.entries = entries<lanes, paired>(column, gap, ahead.next);
      const std::uint32_t function = std::uint32_t(step >> 32);  // j + 1, or 0
      if (closed || function != 0) visit(function, v);
      if constexpr (level + 1 < ProductStructure::max_depth)
        walk_level<level + 1, paired, closed>(program, ahead, std::uint32_t(step) >> 16, v, column,
                                              gap, visit);
    }
  }

  // The samples a CPU walk makes at once (host_walk).
  static constexpr int host_walk_samples = 32;
#ifdef RECUR_IMPL_CPU_LANES
  // The walk on a CPU: host_walk_samples samples b, b + 1, ... in vectors
  // (of `width` doubles, 4 or, where the build has AVX-512, 8; of 8 floats
  // for float tables, width 8), visit(j + 1, v) for every function j in the
  // program's order (the root first), v its values (each its parent's times
  // one table entry: the same products, in the same order, as walk's, the
  // chain's and the recipes'), the path's values held in registers.
  template <int width, class Visit>
  RECUR_LANES_INLINE void host_walk(const std::uint64_t* program, const ScratchView& table, int b,
                                    const Visit& visit) const {
    constexpr int vectors = host_walk_samples / width;
    using Lane            = cpu_lanes::WalkLane<S, width>;
    static_assert(sizeof(Lane) == width * sizeof(S), "recur: a walk's vector is `width` tables' entries");
    const std::ptrdiff_t gap = pitch();
    const S* column          = table.data() + b;
    Lane base[vectors];
    const S* const bases = column + std::ptrdiff_t(data.terms) * gap;
    cpu_lanes::each<vectors>(
        [&](auto g) RECUR_LANES_INLINE { base[g] = cpu_lanes::load_lanes<Lane>(bases + width * g); });
    if (data.root_column >= 0) visit(std::uint32_t(data.root_column + 1), base);
    std::int64_t q = 0;
    host_walk_level<0>(program, q, std::uint32_t(data.roots), base, column, gap, visit);
  }
  template <int level, class Lane, int vectors, class Visit>
  RECUR_LANES_INLINE void host_walk_level(const std::uint64_t* program, std::int64_t& q,
                                          std::uint32_t count, const Lane (&parent)[vectors],
                                          const S* column, std::ptrdiff_t gap,
                                          const Visit& visit) const {
    constexpr int width = host_walk_samples / vectors;
    for (; count != 0; --count) {
      const std::uint64_t step = program[q++];
      const S* t               = column + std::ptrdiff_t(step & 0xffffu) * gap;
      Lane v[vectors];
      cpu_lanes::each<vectors>([&](auto g) RECUR_LANES_INLINE {
        v[g] = parent[g] * cpu_lanes::load_lanes<Lane>(t + width * g);
      });
      const std::uint32_t function = std::uint32_t(step >> 32);  // j + 1, or 0
      if (function != 0) visit(function, v);
      if constexpr (level + 1 < ProductStructure::max_depth)
        host_walk_level<level + 1>(program, q, std::uint32_t(step) >> 16, v, column, gap, visit);
    }
  }
#endif

  // Psi_j of sample b, `base` = base_of(table, b): from j's recipe where the
  // basis has recipes (the same product as from its factors, in the same
  // order, times ones for the missing factors), else from its factors. (In
  // Nsight Compute the H200's series kernel, with factor lists, issued an
  // instruction on 76 % of its schedulers' cycles: bound by instructions, so
  // a value costs as few as it can: one load of its recipe, a multiply-add
  // of 32-bit numbers for each factor's address.)
  KOKKOS_FUNCTION S value(const ScratchView& table, int b, int j, S base) const {
    if (data.words == 0)
      return times_factors(table, b, data.factor_offset(j), data.factor_offset(j + 1), base);
    S v                    = base;
    const char* t          = reinterpret_cast<const char*>(table.data() + b);
    const std::uint32_t p  = std::uint32_t(pitch()) * sizeof(S);  // bytes from a table to the next
    const std::uint64_t* r = data.recipe.data() + std::size_t(j) * std::size_t(data.words);
    // Table `number` of this sample: one 32 x 32 -> 64-bit multiply-add.
    const auto entry = [&](std::uint32_t number) {
      return *reinterpret_cast<const S*>(t + std::uint64_t(number) * p);
    };
    for (int w = 0; w < data.words; ++w) {
      const std::uint64_t q  = r[w];
      const std::uint32_t lo = std::uint32_t(q), hi = std::uint32_t(q >> 32);
      v *= entry(lo & 0xffffu);
      v *= entry(lo >> 16);
      v *= entry(hi & 0xffffu);
      v *= entry(hi >> 16);
    }
    return v;
  }
  // Function j's recipe (words of 4 table numbers: 1 or 2) as the byte
  // offsets of its factors in a sample's column of the tables, made once by
  // a thread that makes j for many samples (ProductBasisFunctor::rows_block).
  template <int words>
  struct Recipe {
    std::uint32_t at[4 * words];
  };
  template <int words>
  KOKKOS_FUNCTION Recipe<words> recipe(int j) const {
    Recipe<words> r;
    const std::uint32_t gap = std::uint32_t(pitch()) * sizeof(S);
    for (int w = 0; w < words; ++w) {
      const std::uint64_t q = data.recipe(std::size_t(j) * words + std::size_t(w));
      for (int f = 0; f < 4; ++f) r.at[4 * w + f] = std::uint32_t((q >> (16 * f)) & 0xffffu) * gap;
    }
    return r;
  }
  // Function j's recipe for row `row` of a unit (ProductBasisFunctor::
  // units_block): the offsets of its factors' entries, that row's, and ~0
  // for the padding (the table of ones: x * 1 = x, so the multiply is left
  // out).
  template <int words>
  KOKKOS_FUNCTION Recipe<words> unit_recipe(int j, int row) const {
    Recipe<words> r      = recipe<words>(j);
    const std::uint32_t ones = std::uint32_t(data.terms + 1) * std::uint32_t(pitch()) * sizeof(S);
    for (int f = 0; f < 4 * words; ++f)
      r.at[f] = r.at[f] == ones ? ~std::uint32_t(0) : r.at[f] + std::uint32_t(row) * sizeof(S);
    return r;
  }
  // The values of a Pack's n elements for the unit of samples from b: the
  // base of element i's row (`row[i]`) times its factors (unit_recipe), the
  // products of `value` in its order (the padding's multiplies by 1 left
  // out). `shared` as for values().
  template <int n, bool shared, int words>
  KOKKOS_FUNCTION void unit_values(const ScratchView& table, int b, const int (&row)[n],
                                   const Recipe<words> (&r)[n], S (&v)[n]) const {
    const char* t = reinterpret_cast<const char*>(table.data() + b);
#ifdef __CUDA_ARCH__
    if constexpr (shared) __builtin_assume(__isShared(t));
#endif
    const char* bases = t + std::uint32_t(data.terms) * std::uint32_t(pitch()) * sizeof(S);
    for (int i = 0; i < n; ++i) v[i] = *reinterpret_cast<const S*>(bases + row[i] * sizeof(S));
    for (int f = 0; f < 4 * words; ++f)
      for (int i = 0; i < n; ++i)
        if (r[i].at[f] != ~std::uint32_t(0)) v[i] *= *reinterpret_cast<const S*>(t + r[i].at[f]);
  }
  // value(table, b, j, base_of(table, b)) from j's recipe: the same product,
  // for samples b, b + step, ... (`n` of them, independent chains). `shared`:
  // the tables are in a GPU's shared memory (level 0), said to the compiler
  // so that their loads are shared loads, free to move past Psi's stores.
  template <int n, bool shared, int words>
  KOKKOS_FUNCTION void values(const ScratchView& table, int b, int step, const Recipe<words>& r,
                              S (&v)[n]) const {
    const char* t = reinterpret_cast<const char*>(table.data() + b);
    const std::uint32_t gap = std::uint32_t(step) * sizeof(S);
#ifdef __CUDA_ARCH__
    if constexpr (shared) __builtin_assume(__isShared(t));
#endif
    const char* bases = t + std::uint32_t(data.terms) * std::uint32_t(pitch()) * sizeof(S);
    for (int s = 0; s < n; ++s) v[s] = *reinterpret_cast<const S*>(bases + s * gap);
    for (int f = 0; f < 4 * words; ++f)
      for (int s = 0; s < n; ++s) v[s] *= *reinterpret_cast<const S*>(t + r.at[f] + s * gap);
  }
};

template <class S, class W, class ExecSpace, class XView, class PsiView, class DView>
struct ProductBasisFunctor {
  using Tables      = ProductTables<S, W, ExecSpace, XView>;
  using team_member = typename Tables::team_member;
  using T           = typename PsiView::value_type;
  static constexpr bool gradient = !std::is_same_v<DView, NoGradient>;
  // Whether the kernel may walk (contiguous columns): not for LayoutRight,
  // whose kernels then hold no walk (and need fewer registers).
  static constexpr bool may_walk =
      !gradient && !std::is_same_v<typename PsiView::array_layout, Kokkos::LayoutRight>;

  Tables tables;
  PsiView Psi;
  DView dPsi;
  int P;
  bool samples_fastest;  // the order of Psi's memory, for the value-by-value path

  // out[b * pitch + j] = T(values[j * width + b]) for b < n, j < P: rows
  // from the functions' values (P x width). Where the CPU has AVX2, 4 x 4
  // tiles are turned in registers so that each row is written 4 values at
  // a time (the same numbers as the plain loop, which does the rest).
  KOKKOS_FUNCTION void store_rows(const S* values, int width, int n, T* out,
                                  std::size_t pitch) const {
    int rows_done = 0;  // rows written whole
#ifdef RECUR_IMPL_CPU_LANES
    if constexpr (std::is_same_v<S, double>) {
      for (; rows_done + 4 <= n; rows_done += 4) {
        const int b = rows_done;
        int j       = 0;
        for (; j + 4 <= P; j += 4) {
          const double* v  = values + std::size_t(j) * width + b;
          const __m256d a0 = _mm256_loadu_pd(v), a1 = _mm256_loadu_pd(v + width);
          const __m256d a2 = _mm256_loadu_pd(v + 2 * width), a3 = _mm256_loadu_pd(v + 3 * width);
          const __m256d t0 = _mm256_unpacklo_pd(a0, a1), t1 = _mm256_unpackhi_pd(a0, a1);
          const __m256d t2 = _mm256_unpacklo_pd(a2, a3), t3 = _mm256_unpackhi_pd(a2, a3);
          const __m256d r[4] = {_mm256_permute2f128_pd(t0, t2, 0x20),
                                _mm256_permute2f128_pd(t1, t3, 0x20),
                                _mm256_permute2f128_pd(t0, t2, 0x31),
                                _mm256_permute2f128_pd(t1, t3, 0x31)};
          for (int k = 0; k < 4; ++k) {
            T* row = out + std::size_t(b + k) * pitch + j;
            if constexpr (std::is_same_v<T, float>) {
              _mm_storeu_ps(row, _mm256_cvtpd_ps(r[k]));
            } else {
              _mm256_storeu_pd(row, r[k]);
            }
          }
        }
        for (int k = 0; k < 4; ++k)
          for (int jj = j; jj < P; ++jj)
            out[std::size_t(b + k) * pitch + jj] = T(values[std::size_t(jj) * width + b + k]);
      }
    }
#endif
    for (int b = rows_done; b < n; ++b)
      for (int j = 0; j < P; ++j) out[std::size_t(b) * pitch + j] = T(values[std::size_t(j) * width + b]);
  }

  // A CPU thread's block: a function at a time over the block's samples
  // (Tables::product). Columns contiguous: each function's values of the
  // block are one run of Psi's column, stored from them (copy_out). Rows
  // contiguous: the same values, then runs of row_run samples turned into
  // rows (store_rows) in a staging buffer and stored (whole-block products
  // and padded width: double 77-79 against 89-92 ms at M = 2^20, d = 5,
  // p = 4, float unchanged at 56-60). Streamed where Psi is large (copy_out);
  // other strides are stored one value at a time.
  KOKKOS_FUNCTION void host_block(const typename Tables::team_member& team,
                  const typename Tables::ScratchView& table,
                  std::int64_t first, int count) const {
    const int block = tables.block;
    const bool rows = Psi.stride_1() == 1 && Psi.extent(1) > 1;
    const bool columns = !rows && (Psi.stride_0() == 1 || Psi.extent(0) == 1);
    const bool stream  = Psi.span() * sizeof(T) >= stream_bytes;
    constexpr int run = Tables::row_run;
    constexpr int pad = Tables::row_pad;
    T* stage = static_cast<T*>(
        team.team_scratch(tables.level).get_shmem(sizeof(T) * std::size_t(run) * std::size_t(P)));
    if (!rows) {
      const auto products = tables.allocate_products(team, P, block);
      for (int j = 0; j < P; ++j) {
        const S* values = tables.product(table, products, block, 0, count, j);
        if (columns) {
          copy_out(&Psi(first, j), values, std::size_t(count), stream);
        } else {
          for (int b = 0; b < count; ++b) Psi(first + b, j) = T(values[b]);
        }
      }
    } else {
      const int width = block + pad;
      const auto products = tables.allocate_products(team, P, width);
      const bool adjacent = Psi.stride_0() == std::size_t(P);  // rows one after the other
      for (int j = 0; j < P; ++j) tables.product(table, products, width, 0, count, j);
      for (int b0 = 0; b0 < count; b0 += run) {
        const int n = count - b0 < run ? count - b0 : run;
        store_rows(&products(b0), width, n, stage, std::size_t(P));
        if (adjacent) {
          copy_out(&Psi(first + b0, 0), stage, std::size_t(n) * P, stream);
        } else {
          for (int b = 0; b < n; ++b)
            copy_out(&Psi(first + b0 + b, 0), stage + std::size_t(b) * P, std::size_t(P), stream);
        }
      }
    }
#ifdef RECUR_IMPL_CPU_LANES
    if (stream) _mm_sfence();  // the streamed stores, ordered before the kernel ends
#endif
  }

  // Whether a CPU thread's block walks for rows (host_walk_rows): Psi's
  // rows contiguous and one after the other, no gradient.
  static bool host_walks_rows(const PsiView& Psi, int P) {
#ifdef RECUR_IMPL_CPU_LANES
    if constexpr (Tables::one_thread && !gradient) {
      return P > 1 && Psi.stride_1() == 1 &&
             (Psi.stride_0() == std::size_t(P) || Psi.extent(0) == 1);
    } else {
      (void)Psi, (void)P;
      return false;
    }
#else
    (void)Psi, (void)P;
    return false;
#endif
  }
  // Whether a CPU thread's rows are made by lookups (host_lookup_rows):
  // float tables and results (recur::Fast), a build with AVX-512 and a
  // basis with lookups (ProductStructure); else by the walk.
#if defined(RECUR_IMPL_CPU_LANES) && defined(__AVX512F__)
  static constexpr bool may_look_up = std::is_same_v<S, float> && std::is_same_v<T, float>;
#else
  static constexpr bool may_look_up = false;
#endif
  bool looks_up() const { return may_look_up && tables.data.lookup_factors > 0; }
  static constexpr int lookup_samples = ProductStructure::lookup_width;  // a group's rows
  static std::size_t lookup_scratch(int P) {
    return sizeof(float) * (std::size_t(lookup_samples) * (ProductStructure::lookup_slots + std::size_t(P)) +
                            ProductStructure::lookup_width) +
           128;
  }
  // Scratch of host_walk_rows past the tables: a group's values (P rounded
  // up to `unit` functions, x host_walk_samples), a unit's rows and a line;
  // at least what host_lookup_rows takes.
  static constexpr int unit = 32 / sizeof(T);  // rows of a unit: one vector of T
  static std::size_t rows_scratch(int P) {
    const std::size_t functions = std::size_t(P + unit - 1) / unit * unit;
    return std::max(sizeof(T) * (Tables::host_walk_samples * functions + unit * std::size_t(P) + 64) + 128,
                    may_look_up ? lookup_scratch(P) : 0);
  }
#ifdef RECUR_IMPL_CPU_LANES
  // The width of the walk's vectors (host_walk): 8 floats; 8 doubles
  // where the build has AVX-512, else 4.
  static constexpr int width = std::is_same_v<S, float> ? 8 : cpu_lanes::wide_doubles;
  // A walk's values of one function (host_walk: 32 samples in 4 vectors of
  // 8 floats or 8 doubles, or 8 vectors of 4 doubles) as T to at[0 .. 31],
  // 8 values a put: 32-byte stores, or 64-byte ones of 8 doubles;
  // non-temporal where `stream` (at aligned).
  template <class Lane, int vectors>
  RECUR_LANES_INLINE static void put_values(T* at, const Lane (&v)[vectors], bool stream) {
    if constexpr (vectors == 4) {
      cpu_lanes::each<4>([&](auto g) RECUR_LANES_INLINE { cpu_lanes::put(at + 8 * g, v[g], stream); });
    } else {
      cpu_lanes::each<4>([&](auto h) RECUR_LANES_INLINE {
        cpu_lanes::put(at + 8 * h, v[2 * h], v[2 * h + 1], stream);
      });
    }
  }
  // A CPU thread's block by the walk (ProductTables::host_walk), where Psi's
  // columns are contiguous: each function's 32 values stored to its column
  // where they are made, 128 bytes of float or 256 of double, whole lines,
  // non-temporal where they are aligned and Psi is not small: plain stores
  // of P columns' lines take the L1 cache from the tables (on this
  // project's VM, float Psi of 256 KiB took 1.5 times as long with them, of
  // 4-16 MiB 1.9-2.5 times; docs/multivariate.md, "CPU, 2026-12-05"). The
  // chain (host_block) wrote every value to a scratch buffer first and read
  // it back: plain stores beside the streamed ones, which this CPU takes
  // slowly (docs/multivariate.md, "CPU, 2026-12-04, evening").
  // Samples b .. count - 1 of a CPU thread's block, one at a time (those
  // the walks and the lookups leave: fewer than a group).
  void host_last_samples(const typename Tables::ScratchView& table, std::int64_t first, int b,
                         int count) const {
    for (; b < count; ++b) {
      const S base = tables.base_of(table, b);
      for (int j = 0; j < P; ++j) Psi(first + b, j) = T(tables.value(table, b, j, base));
    }
  }
  static constexpr std::size_t columns_stream_bytes = std::size_t(128) << 10;
  void host_walk_block(const typename Tables::ScratchView& table, const std::uint64_t* program,
                       std::int64_t first, int count) const {
    constexpr int n         = Tables::host_walk_samples;
    const std::ptrdiff_t ld = std::ptrdiff_t(Psi.stride_1());
    const bool stream =
        streams(Psi, n, columns_stream_bytes) && first * std::int64_t(sizeof(T)) % 64 == 0;
    int b = 0;
    for (; b + n <= count; b += n) {
      T* const out = &Psi(first + b, 0);
      tables.template host_walk<width>(program, table, b, [&](std::uint32_t function, const auto& v)
                                                     RECUR_LANES_INLINE {
        put_values(out + std::ptrdiff_t(function - 1) * ld, v, stream);
      });
    }
    host_last_samples(table, first, b, count);
    if (stream) _mm_sfence();  // the streamed stores, ordered before the kernel ends
  }

  // A CPU thread's block by the walk where Psi's rows are contiguous and one
  // after the other (LayoutRight; host_walks_rows): host_walk_samples
  // samples at a time, each function's values stored as T where the walk
  // makes them into `values` (a function's samples contiguous); then the
  // group's rows, `unit` rows by `unit` functions turned in registers
  // (cpu_lanes::transpose_from), into `stage`, the unit's image in Psi, and
  // its whole cache lines stored from there, streamed where Psi is large
  // (a group is whole lines, aligned where Psi is). The chain (host_block)
  // made the same values in a buffer of the whole block, beyond the L1
  // cache, and turned them 4 x 4 doubles at a time (docs/multivariate.md,
  // "CPU, 2026-12-04, late").
  void host_walk_rows(const typename Tables::team_member& team, const typename Tables::ScratchView& table,
                      const std::uint64_t* program, std::int64_t first, int count) const {
    constexpr int n     = Tables::host_walk_samples;
    constexpr int line  = 64 / sizeof(T);
    const int P         = this->P;  // (a local: the stores below may not change it)
    const int functions = (P + unit - 1) / unit * unit;
    auto& scratch       = team.team_scratch(tables.level);
    T* const values     = static_cast<T*>(scratch.get_shmem_aligned(sizeof(T) * n * std::size_t(functions), 64));
    T* const stage      = static_cast<T*>(scratch.get_shmem_aligned(sizeof(T) * (unit * std::size_t(P) + line), 64));
    const bool stream   = Psi.span() * sizeof(T) >= stream_bytes &&
                        reinterpret_cast<std::uintptr_t>(Psi.data()) % 64 == 0;
    for (int j = P; j < functions; ++j)  // the padding functions, read and never stored
      for (int b = 0; b < n; ++b) values[std::size_t(j) * n + b] = T(0);
    int b = 0;
    for (; b + n <= count; b += n) {
      tables.template host_walk<width>(program, table, b, [&](std::uint32_t function, const auto& v)
                                                     RECUR_LANES_INLINE {
        put_values(values + std::ptrdiff_t(function - 1) * n, v, false);
      });
      T* out            = &Psi(first + b, 0);
      std::size_t ahead = 0;  // values at the front of stage: a line's start, not yet stored
      for (int u = 0; u < n; u += unit) {
        T* const rows = stage + ahead;
        for (int j = 0; j < P; j += unit) {
          typename cpu_lanes::RowOf<T>::type r[unit];
          cpu_lanes::transpose_from(values + std::size_t(j) * n + u, n, r);
          T* const at = rows + j;
          if (j + unit <= P) {
            for (int k = 0; k < unit; ++k) cpu_lanes::store(at + std::size_t(k) * P, r[k], false);
          } else {
            for (int k = 0; k < unit; ++k) cpu_lanes::store_first(at + std::size_t(k) * P, r[k], P - j);
          }
        }
        const std::size_t made = ahead + std::size_t(unit) * P;
        const std::size_t done = u + unit < n ? made / line * line : made;  // whole lines
        copy_out(out, stage, done, stream);
        out += done;
        ahead = made - done;
        for (std::size_t i = 0; i < ahead; ++i) stage[i] = stage[done + i];
      }
    }
    host_last_samples(table, first, b, count);
    if (stream) _mm_sfence();  // the streamed stores, ordered before the kernel ends
  }

  // A CPU thread's block of rows one after the other (LayoutRight) by
  // lookups, where looks_up(): 16 samples at a time. Their entries of the
  // tables a value reads (at most 32: ProductStructure's slots) are turned
  // into one row of 32 floats a sample; then each run of 16 functions of a
  // sample is its base times, for each factor of the run's recipes, the 16
  // entries one in-register lookup (vpermi2ps) takes from that row: the
  // recipes' products in their order, the walk's values bit for bit, in 4
  // lookups and multiplies for 16 values at d = 5, p = 4, where the walk
  // spends a multiply a value and then turns its columns into rows. Each
  // run goes to a staging buffer that holds the group's rows as they lie
  // in Psi (16 rows of floats are whole cache lines), and the lines a row
  // completes are stored at once, streamed where Psi is large: stores
  // spread between the arithmetic, not in bursts after it.
  void host_lookup_rows(const typename Tables::team_member& team, const typename Tables::ScratchView& table,
                        std::int64_t first, int count) const {
#if defined(__AVX512F__)
    if constexpr (may_look_up) {
      constexpr int n = lookup_samples, slots = ProductStructure::lookup_slots;
      constexpr int width = ProductStructure::lookup_width;
      const int P       = this->P;
      const int chunks  = (P + width - 1) / width;
      auto& scratch     = team.team_scratch(tables.level);
      float* const rows = static_cast<float*>(scratch.get_shmem_aligned(sizeof(float) * n * slots, 64));
      float* const stage =
          static_cast<float*>(scratch.get_shmem_aligned(sizeof(float) * (std::size_t(n) * P + width), 64));
      const bool stream = Psi.span() * sizeof(T) >= stream_bytes &&
                          reinterpret_cast<std::uintptr_t>(Psi.data()) % 64 == 0;
      const std::ptrdiff_t pitch       = tables.pitch();
      const int* const slot_table      = tables.data.lookup_table.data();
      const std::int32_t* const lookup = tables.data.lookup.data();
      int b                            = 0;
      // Every chunk with the basis' most factors (ones past a function's
      // own), a number known to the compiler: the loops unrolled.
      const auto groups = [&](auto factors) RECUR_LANES_INLINE {
        constexpr int F = decltype(factors)::value;
        for (; b + n <= count; b += n) {
          // rows[s * slots + q] = sample b + s's entry of slot q's table
          for (int g = 0; g < slots; g += 8)
            for (int h = 0; h < n; h += 8) {
              __m256 r[8];
              for (int k = 0; k < 8; ++k)
                r[k] = _mm256_loadu_ps(table.data() + slot_table[g + k] * pitch + b + h);
              cpu_lanes::transpose(r);
              for (int k = 0; k < 8; ++k) _mm256_store_ps(rows + (h + k) * slots + g, r[k]);
            }
          T* const out         = &Psi(first + b, 0);  // (aligned to 64 bytes where `stream`)
          std::size_t streamed = 0;
          for (int s = 0; s < n; ++s) {
            const float* const at = rows + s * slots;
            const __m512 low = _mm512_load_ps(at), high = _mm512_load_ps(at + 16);
            const __m512 base = _mm512_set1_ps(at[ProductStructure::lookup_base]);
            float* const row  = stage + std::size_t(s) * P;
            const std::int32_t* index = lookup;
            for (int c = 0; c < chunks; ++c, index += F * width) {
              __m512 v = base;
              cpu_lanes::each<F>([&](auto f) RECUR_LANES_INLINE {
                v = _mm512_mul_ps(v, _mm512_permutex2var_ps(low, _mm512_loadu_si512(index + width * f), high));
              });
              _mm512_storeu_ps(row + width * c, v);  // (past the row: the next row's, or the slack)
            }
            // The lines before the next row's first value are whole: stored
            // now (16 rows are whole lines).
            const std::size_t whole = s + 1 < n ? std::size_t(s + 1) * P / width * width : std::size_t(n) * P;
            if (stream) {
              for (std::size_t q = streamed; q < whole; q += width)
                _mm512_stream_ps(out + q, _mm512_load_ps(stage + q));
            } else {
              copy_out(out + streamed, stage + streamed, whole - streamed, false);
            }
            streamed = whole;
          }
        }
      };
      switch (tables.data.lookup_factors) {
        case 1: groups(std::integral_constant<int, 1>{}); break;
        case 2: groups(std::integral_constant<int, 2>{}); break;
        case 3: groups(std::integral_constant<int, 3>{}); break;
        case 4: groups(std::integral_constant<int, 4>{}); break;
        case 5: groups(std::integral_constant<int, 5>{}); break;
        case 6: groups(std::integral_constant<int, 6>{}); break;
        case 7: groups(std::integral_constant<int, 7>{}); break;
        default: groups(std::integral_constant<int, 8>{}); break;  // (recipes have at most 8)
      }
      host_last_samples(table, first, b, count);
      if (stream) _mm_sfence();  // the streamed stores, ordered before the kernel ends
    }
#else
    (void)team, (void)table, (void)first, (void)count;
#endif
  }
#endif

  // out + function * gap: one 32 x 32 -> 64-bit multiply-add.
  template <class Gap>
  KOKKOS_FORCEINLINE_FUNCTION static char* address(std::uintptr_t out, std::uint32_t function, Gap gap) {
#ifdef __CUDA_ARCH__
    if constexpr (std::is_same_v<Gap, std::uint32_t>) {
      std::uint64_t at;
      asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(at) : "r"(function), "r"(gap), "l"(out));
      return reinterpret_cast<char*>(at);
    }
#endif
    return reinterpret_cast<char*>(out + std::uint64_t(function) * gap);
  }

  // at[0] = a, at[1] = b in one store (at: aligned to two T).
  KOKKOS_FORCEINLINE_FUNCTION static void store_pair(char* at, T a, T b) {
#ifdef __CUDA_ARCH__
    // (A global store, evict-first as store_result's: at is in global memory.)
    if constexpr (std::is_same_v<T, float>) {
      asm("st.global.cs.v2.f32 [%0], {%1, %2};" ::"l"(at), "f"(a), "f"(b));
    } else {
      asm("st.global.cs.v2.f64 [%0], {%1, %2};" ::"l"(at), "d"(a), "d"(b));
    }
#else
    reinterpret_cast<T*>(at)[0] = a;
    reinterpret_cast<T*>(at)[1] = b;
#endif
  }

  // A block by the walk, where Psi's columns are contiguous: a thread a
  // sample, or on GPUs two adjacent samples (Tables::lanes) in a whole
  // block, each value stored where it is made (a warp's stores: one line of
  // a column; for two samples one 8- or 16-byte store a thread where the
  // pair is aligned).
  KOKKOS_FUNCTION void walk_block(const team_member& team, const typename Tables::ScratchView& table,
                                  const std::uint64_t* program, std::int64_t first, int count) const {
    // Function j's value at &Psi(i, 0) + j * stride bytes: one 32 x 32 ->
    // 64-bit multiply-add an address where the stride fits 32 bits.
    const std::uint64_t stride = std::uint64_t(Psi.stride_1()) * sizeof(T);
    const std::uint64_t row    = std::uint64_t(Psi.stride_0()) * sizeof(T);  // sample to sample
    const bool pairs = tables.lanes == 2 && count == tables.block;
    const bool packed =
        pairs && Psi.stride_0() == 1 && Psi.stride_1() % 2 == 0 &&
        reinterpret_cast<std::uintptr_t>(Psi.data()) % (2 * sizeof(T)) == 0;
    const auto run = [&](auto gap, auto lanes, auto pack, auto closed) {
      constexpr int n = decltype(lanes)::value;
      opaque(gap);  // (the walk's store address: one multiply-add of the gap, not a
                    // recomputation from Psi's index and stride)
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count / n), [&](int h) {
        const int b = h * n;
        // Function j's value at out + (j + 1) * gap: one multiply-add.
        const std::uintptr_t out = reinterpret_cast<std::uintptr_t>(&Psi(first + b, 0)) - gap;
        tables.template walk<n, n == 2, decltype(closed)::value>(
            program, table, b, [&](std::uint32_t function, const S(&v)[n]) {
          char* const at = address(out, function, gap);
#ifdef __CUDA_ARCH__
          __builtin_assume(__isGlobal(at));  // (every space a GPU kernel writes is)
#endif
          if constexpr (decltype(pack)::value) {
            store_pair(at, T(v[0]), T(v[1]));
          } else {
            for (int s = 0; s < n; ++s) store_result(reinterpret_cast<T*>(at + s * row), T(v[s]));
          }
        });
      });
    };
    const auto with_gap = [&](auto gap) {
      using one = std::integral_constant<int, 1>;
      using two = std::integral_constant<int, 2>;
      if (packed && tables.data.closed) {
        run(gap, two{}, std::true_type{}, std::true_type{});
      } else if (packed) {
        run(gap, two{}, std::true_type{}, std::false_type{});
      } else if (pairs) {
        run(gap, two{}, std::false_type{}, std::false_type{});
      } else {
        run(gap, one{}, std::false_type{}, std::false_type{});
      }
    };
    if (stride <= 0xffffffffu) {
      with_gap(std::uint32_t(stride));
    } else {
      with_gap(stride);
    }
  }

  // GPUs, double Psi: whether its rows lie one after the other from a
  // 16-byte boundary and the recipes are short, for units_block. (Float
  // Psi keeps rows_block, four samples a thread: by units it took 1.06
  // against 0.96 ms on an H100, 96 registers against 72, and with the
  // padding's loads kept 1.14; docs/multivariate.md, "H100, 2026-12-07,
  // evening".)
  KOKKOS_FUNCTION bool units_fit() const {
    return !Tables::one_thread && sizeof(T) == sizeof(double) && Psi.stride_1() == 1 &&
           std::size_t(Psi.stride_0()) == std::size_t(P) &&
           reinterpret_cast<std::uintptr_t>(Psi.data()) % sizeof(Pack<T>) == 0 &&
           (tables.data.words == 1 || tables.data.words == 2);
  }
  // GPUs, where units_fit: the block's count x P values are one run of Psi,
  // stored as Packs (16 bytes). A unit is the fewest rows whose values are
  // whole Packs (u rows, g Packs: at P = 126, one row of 63 Packs of two
  // doubles); thread t makes Pack q = t mod g of units t / g, t / g + per,
  // ..., its elements' recipes decoded once (unit_recipe), so that a warp
  // stores 512 contiguous bytes an instruction where rows_block stores 256,
  // and skips the loads and multiplies of the recipes' padding (on an
  // H100, double Psi 1.690-1.694 -> 1.628-1.655 ms, 0.79 -> 0.81-0.82 of
  // the ceiling). Blocks start on whole units (a block is a multiple of 4
  // samples).
  template <int words, bool shared>
  KOKKOS_FUNCTION void units_block(const team_member& team, const typename Tables::ScratchView& table,
                                   std::int64_t first, int count) const {
    using Unit      = Pack<T>;
    constexpr int n = Unit::size;
    const int size = team.team_size(), rank = team.team_rank();
    int u = 1;  // rows of a unit
    while (u * P % n != 0) u *= 2;
    const int g     = u * P / n;
    const int units = count / u;
    const bool wide = g > size;  // a unit takes more than a pass of the team
    const int per   = wide ? 1 : size / g;
    const int lanes = wide ? size : per * g;
    if (rank < lanes) {
      Unit* const out = reinterpret_cast<Unit*>(&Psi(first, 0));
      for (int q = wide ? rank : rank % g; q < g; q += lanes) {
        int row[n];
        typename Tables::template Recipe<words> r[n];
        for (int i = 0; i < n; ++i) {
          row[i] = (q * n + i) / P;
          r[i]   = tables.template unit_recipe<words>((q * n + i) % P, row[i]);
        }
        for (int c = wide ? 0 : rank / g; c < units; c += per) {
          S v[n];
          tables.template unit_values<n, shared>(table, c * u, row, r, v);
          Unit pack;
          for (int i = 0; i < n; ++i) pack.v[i] = T(v[i]);
          store_result(out + std::size_t(c) * std::size_t(g) + std::size_t(q), pack);
        }
      }
    }
    // The block's last count mod u samples: a value a thread.
    const int done = units * u;
    for (int e = rank; e < (count - done) * P; e += size) {
      const int b = done + e / P, j = e % P;
      store_result(Psi, first + b, j, T(tables.value(table, b, j, tables.base_of(table, b))));
    }
  }

  // A block where Psi's rows are contiguous (LayoutRight): thread t makes
  // function j = t mod P of samples t / P, t / P + s, ... (s = team size / P;
  // where P is larger than the team, functions t, t + team size, ... of
  // every sample), so that a warp stores one run of a row (of consecutive
  // rows where they are adjacent) and a thread reads its functions' recipes
  // once, not once a value.
  KOKKOS_FUNCTION void rows_block(const team_member& team, const typename Tables::ScratchView& table,
                                  std::int64_t first, int count) const {
    const int size = team.team_size(), rank = team.team_rank();
    const int samples = size >= P ? size / P : 1;  // a pass
    const int lanes   = size >= P ? samples * P : size;
    if (rank >= lanes) return;
    const auto run = [&](auto words, auto shared) {
      constexpr int w = decltype(words)::value;
      for (int j = rank % P; j < P; j += lanes) {
        if constexpr (w == 0) {
          for (int b = rank / P; b < count; b += samples)
            store_result(Psi, first + b, j, T(tables.value(table, b, j, tables.base_of(table, b))));
        } else {
          // Float results: four samples at a time, four independent chains
          // of loads and multiplies a thread (on an H100, float Psi 1.086 ->
          // 0.955 ms, 0.62 -> 0.71 of the ceiling; double 1.686 -> 1.717
          // with them, so double keeps one; docs/multivariate.md, "H100,
          // 2026-12-07").
          constexpr int n = sizeof(T) == 4 ? 4 : 1;
          const auto recipe = tables.template recipe<w>(j);
          int b = rank / P;
          for (; b + (n - 1) * samples < count; b += n * samples) {
            S v[n];
            tables.template values<n, decltype(shared)::value>(table, b, samples, recipe, v);
            for (int s = 0; s < n; ++s) store_result(Psi, first + b + s * samples, j, T(v[s]));
          }
          for (; b < count; b += samples) {
            S v[1];
            tables.template values<1, decltype(shared)::value>(table, b, samples, recipe, v);
            store_result(Psi, first + b, j, T(v[0]));
          }
        }
      }
    };
    const auto with_words = [&](auto shared) {
      if (tables.data.words == 1) {
        run(std::integral_constant<int, 1>{}, shared);
      } else if (tables.data.words == 2) {
        run(std::integral_constant<int, 2>{}, shared);
      } else {
        run(std::integral_constant<int, 0>{}, shared);
      }
    };
    // (Double as before: loads not said to be shared.)
    if constexpr (sizeof(T) == 4) {
      if (tables.level == 0) {
        with_words(std::true_type{});
        return;
      }
    }
    with_words(std::false_type{});
  }

  KOKKOS_FUNCTION void operator()(const team_member& team) const {
    const auto table = tables.allocate(team);
    typename Tables::ScratchView dtable;
    if constexpr (gradient) dtable = tables.allocate(team);
    const std::uint64_t* program = tables.program(team);
    tables.template fill<gradient, may_walk>(team, table, dtable);
    const std::int64_t first = tables.first(team);
    const int count          = tables.count(team);
    const auto& data         = tables.data;
    if constexpr (!gradient && Tables::one_thread) {
#ifdef RECUR_IMPL_CPU_LANES
      if (tables.walks) {
        if (host_walks_rows(Psi, P)) {
          if (looks_up()) {
            host_lookup_rows(team, table, first, count);
          } else {
            host_walk_rows(team, table, program, first, count);
          }
          return;
        }
        if constexpr (may_walk) {
          if (Psi.stride_0() == 1 || Psi.extent(0) == 1) {  // columns contiguous
            host_walk_block(table, program, first, count);
            return;
          }
        }
      }
#endif
      if (tables.chain) {
        host_block(team, table, first, count);
        return;
      }
    }
    if constexpr (may_walk) {
      if (tables.walks) {
        walk_block(team, table, program, first, count);
        return;
      }
    }
    // Value (b, j) and, with the gradient, its d derivatives.
    const auto store = [&](int b, int j) {
      const std::int64_t i = first + b;
      if constexpr (gradient) {
        const std::int64_t e0 = data.factor_offset(j), e1 = data.factor_offset(j + 1);
        const S base          = tables.base_of(table, b);
        Psi(i, j)             = T(tables.times_factors(table, b, e0, e1, base));
        // d/dxi_k: the factor of dimension k differentiated; 0 where alpha_k
        // is 0 (NaN with the sample's NaN base).
        const S zero   = base * S(0);
        std::int64_t e = e0;
        for (int k = 0; k < tables.d; ++k) {
          S g = zero;
          if (e < e1 && data.factor_dim(e) == k) {
            g = tables.times_factors(table, b, e0, e1, base, e) *
                dtable(std::size_t(data.factor_term(e)) * tables.pitch() + b);
            ++e;
          }
          dPsi(i, j, k) = T(g);
        }
      } else {
        Psi(i, j) = T(tables.value(table, b, j, tables.base_of(table, b)));
      }
    };
    // Neighbouring threads on neighbouring addresses: a thread a sample and
    // every function in turn where Psi's columns are contiguous; where its
    // rows are one after the other, the block's P x count values as one run
    // (thread t the values t, t + team size, ...: whole lines a warp); for
    // other rows a thread a function and every sample in turn.
    if (samples_fastest) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](int b) {
        if constexpr (gradient) {
          for (int j = 0; j < P; ++j) store(b, j);
        } else {  // (a pointer stepped along the row, the sample's base loaded once)
          T* out                 = &Psi(first + b, 0);
          const std::size_t next = Psi.stride_1();
          const S base           = tables.base_of(table, b);
          for (int j = 0; j < P; ++j, out += next) *out = T(tables.value(table, b, j, base));
        }
      });
    } else if (!gradient && Psi.stride_1() == 1) {
      if constexpr (!Tables::one_thread) {
        if (units_fit()) {
          const auto with_shared = [&](auto words) {
            constexpr int w = decltype(words)::value;
            if (tables.level == 0) {
              units_block<w, true>(team, table, first, count);
            } else {
              units_block<w, false>(team, table, first, count);
            }
          };
          if (tables.data.words == 1) {
            with_shared(std::integral_constant<int, 1>{});
          } else {
            with_shared(std::integral_constant<int, 2>{});
          }
          return;
        }
      }
      rows_block(team, table, first, count);
    } else {
      for (int b = 0; b < count; ++b)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, P), [&](int j) { store(b, j); });
    }
  }
};

// Y(i, k) = sum_j C(j, k) Psi_j(X(i, :)): a thread per sample and
// expansion, Psi_j formed in registers from the tables and never stored.
template <class S, class W, class ExecSpace, class XView, class CView, class YView>
struct ProductSeriesFunctor {
  using Tables      = ProductTables<S, W, ExecSpace, XView>;
  using team_member = typename Tables::team_member;

  Tables tables;
  CView C;
  YView Y;
  int P;
  int K;  // expansions (C's columns)

#ifdef RECUR_IMPL_CPU_LANES
  // A CPU thread's sums by the walk (ProductTables::host_walk), where the
  // tables are double: an expansion at a time, each function's values
  // multiplied into the sums as the walk makes them, in the walk's order as
  // a GPU thread sums them; no value is stored. (The chain stored every
  // function's values of the block and read them back for each expansion:
  // float Y at K = 1, M = 2^20, d = 5, p = 4 took 36 ms, longer than forming
  // Psi; docs/multivariate.md, "CPU, 2026-12-04, evening".)
  void host_walk_sums(const typename Tables::ScratchView& table, const std::uint64_t* program,
                      std::int64_t first, int count) const {
    constexpr int n = Tables::host_walk_samples, G = n / 4;
    int b = 0;
    for (; b + n <= count; b += n) {
      for (int k = 0; k < K; ++k) {
        cpu_lanes::Vec<double> sum[G] = {};
        tables.template host_walk<4>(program, table, b, [&](std::uint32_t function, const auto& v)
                                                 RECUR_LANES_INLINE {
          const auto c = cpu_lanes::splat(double(S(entry(C, int(function - 1), k))));
          cpu_lanes::each<G>([&](auto g) RECUR_LANES_INLINE { sum[g] = cpu_lanes::fused(v[g], c, sum[g]); });
        });
        alignas(32) double out[n];
        cpu_lanes::each<G>(
            [&](auto g) RECUR_LANES_INLINE { _mm256_store_pd(out + 4 * g, __m256d(sum[g])); });
        for (int s = 0; s < n; ++s) entry(Y, first + b + s, k) = typename YView::value_type(out[s]);
      }
    }
    for (; b < count; ++b)  // the last samples, one at a time, summed in the same order
      for (int k = 0; k < K; ++k) {
        S sum = 0;
        tables.template walk<1>(program, table, b, [&](std::uint32_t function, const S(&v)[1]) {
          sum = multiply_add(v[0], S(entry(C, int(function - 1), k)), sum);
        });
        entry(Y, first + b, k) = typename YView::value_type(sum);
      }
  }
#endif

  KOKKOS_FUNCTION void operator()(const team_member& team) const {
    const auto table = tables.allocate(team);
    const std::uint64_t* program = tables.program(team);
    tables.template fill<false>(team, table, table);
    const std::int64_t first = tables.first(team);
    const int count          = tables.count(team);
    if constexpr (Tables::one_thread) {
#ifdef RECUR_IMPL_CPU_LANES
      if constexpr (std::is_same_v<S, double>) {
        if (tables.walks) {
          host_walk_sums(table, program, first, count);
          return;
        }
      }
#endif
      if (tables.chain) {
        // A CPU thread: each function over the block's samples (vectorized),
        // added into every expansion's sums.
        const auto products = tables.allocate_products(team, P, tables.block);
        for (int j = 0; j < P; ++j) tables.product(table, products, tables.block, 0, count, j);
        for (int k = 0; k < K; ++k) {
          S sum[Tables::host_block] = {};
          for (int j = 0; j < P; ++j) {
            const S c       = S(entry(C, j, k));
            const S* values = &products(std::size_t(j) * tables.block);
            for (int b = 0; b < count; ++b) sum[b] += values[b] * c;
          }
          for (int b = 0; b < count; ++b) entry(Y, first + b, k) = typename YView::value_type(sum[b]);
        }
        return;
      }
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count * K), [&](int q) {
      const int b = q % count, k = q / count;
      S sum = 0;
      if (tables.walks) {
        tables.template walk<1>(program, table, b, [&](std::uint32_t function, const S(&v)[1]) {
          sum += v[0] * S(entry(C, int(function - 1), k));
        });
      } else {
        const S base = tables.base_of(table, b);
        for (int j = 0; j < P; ++j) sum += tables.value(table, b, j, base) * S(entry(C, j, k));
      }
      entry(Y, first + b, k) = typename YView::value_type(sum);
    });
  }
};

// Runs `Functor` (made by make(tables)) over M samples: a team of up to
// 128 samples on GPUs, in scratch level 0 while `tables_per_team` sets of
// tables fit, else level 1, and as many threads, or half as many where
// `lanes` is 2 and the kernel walks (two samples a thread); one thread a
// team on CPUs (Tables::host_samples samples, and their P values each).
// `walks`: whether Functor walks the basis' program where it has one;
// `host_walks`: whether a CPU thread walks (Psi's columns or rows, or the
// sums of series, from double tables): the smaller blocks, whose tables
// stay in the L1 cache; `host_scratch`: what a CPU team needs past the
// tables (ProductBasisFunctor::rows_scratch); `head`: ProductTables::head
// (GPUs).
template <class S, class ExecSpace, class W, class XView, class Make>
void run_product_kernel(const ExecSpace& space, const std::string& label,
                        const ProductBasisData<W, typename ExecSpace::memory_space>& data, S base,
                        const XView& X, int P, int tables_per_team, bool walks, int lanes,
                        bool host_walks, const Make& make, std::size_t host_scratch = 0,
                        std::int64_t head = 0) {
  using Tables = ProductTables<S, W, ExecSpace, XView>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const std::int64_t M = std::int64_t(X.extent(0));
  const bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  Tables tables{data, X, base, int(X.extent(1)), host ? Tables::host_samples(P, host_walks) : 128, 0};
  tables.walks = walks && data.walkable;
  int team = 1;
  std::size_t extra = 0;  // scratch past the tables: the program
  if (!host) {
    const std::size_t budget  = std::size_t(Policy::scratch_size_max(0));
    // The walk's program in shared memory too, where it fits.
    if (tables.walks && data.program.extent(0) <= Tables::max_scratch_program)
      extra += sizeof(std::uint64_t) * data.program.extent(0) + 64;
    // Blocks that fit scratch level 0: down to 32 samples, else level 1,
    // where the kernel does not walk.
    while (tables.block > 32 &&
           Tables::scratch_bytes(tables.block, data.terms, tables_per_team) + extra > budget)
      tables.block /= 2;
    if (Tables::scratch_bytes(tables.block, data.terms, tables_per_team) + extra > budget)
      tables.level = 1;
    tables.walks = extra > 0 && tables.level == 0;
    if (!tables.walks) extra = 0;
    if (tables.walks && lanes == 2) tables.lanes = 2;
    team = tables.block / tables.lanes;
  }
  tables.head    = host ? 0 : std::min(M, head);
  tables.aligned = (M - tables.head + tables.block - 1) / tables.block;
  const std::int64_t blocks = tables.aligned + (tables.head + tables.block - 1) / tables.block;
  std::size_t bytes = Tables::scratch_bytes(tables.block, data.terms, tables_per_team) + extra;
  // A host team's values of every function (P x its samples), and a staging
  // buffer for the runs it stores (ProductBasisFunctor::host_block).
  tables.chain = host && P <= Tables::max_chain;
  if (tables.chain)
    bytes += Tables::ScratchView::shmem_size(std::size_t(tables.block + Tables::row_pad) *
                                             std::size_t(P)) +
             sizeof(double) * std::size_t(Tables::row_run) * std::size_t(P) + 64;
  if (host) bytes += host_scratch;
  Kokkos::parallel_for(label,
                       Policy(space, int(blocks), team)
                           .set_scratch_size(tables.level, Kokkos::PerTeam(bytes)),
                       make(tables));
}

}  // namespace recur::impl

#endif
