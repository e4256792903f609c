// The three-dimensional structure of HV4D+ (Guerreiro & Fonseca, IEEE TEVC
// 2018) and the kernels built on it: exact hypervolume for m = 4, and the
// four-dimensional contribution of one point that the m = 5 sweep needs.
#pragma once
#include <cassert>
#include <cstddef>
#include <vector>

namespace rescue::moo::detail {

/// A set of three-dimensional points, none weakly dominating another, kept
/// in lexicographic (z, y, x) order in a doubly linked list. Each node also
/// remembers its two neighbours on the (x, y) staircase of the nodes before
/// it in that order, so the staircase at any node's height is rebuilt in one
/// pass over the list with O(1) work per node, and the volume a new point
/// adds (its 3-D contribution) is one further pass: O(size) per point.
class ZStaircase {
 public:
  struct Node {
    double x[3];
    Node* next;
    Node* prev;
    /// Staircase neighbours among the nodes before this one: [0] the least x
    /// among those with smaller y (to the right), [1] the least y among those
    /// with smaller x (above). Kept valid as nodes come and go.
    Node* close[2];
    /// Staircase links during a pass: [0] right neighbour, [1] left.
    Node* cur[2];
  };

  /// Empties the set; room for `capacity` nodes (pointers stay valid until
  /// the next reset).
  void reset(const double* ref, std::size_t capacity);

  /// A new unlinked node at (x, y, z).
  Node* make(double x, double y, double z) {
    assert(used_ < pool_.size());  // at most `capacity` nodes per reset
    Node* u = &pool_[used_++];
    u->x[0] = x;
    u->x[1] = y;
    u->x[2] = z;
    return u;
  }

  /// Appends a new node at c, which no member follows in (z, y, x) order
  /// and none weakly dominates, with its staircase neighbours among the
  /// members, known to the caller (nullptr: none, the wall).
  Node* append(const double* c, Node* upper, Node* right) {
    Node* u = make(c[0], c[1], c[2]);
    u->close[0] = right ? right : right_;
    u->close[1] = upper ? upper : left_;
    u->prev = end_->prev;
    u->next = end_;
    end_->prev->next = u;
    end_->prev = u;
    return u;
  }

  /// Rebuilds the staircase of the nodes before u and finds u's place and
  /// neighbours. False if a member weakly dominates u (u adds nothing).
  bool locate(Node* u);

  /// Links u (just located) into the set, dropping the members it weakly
  /// dominates and updating the neighbours of the members after it; the
  /// volume u adds inside the reference box.
  double add(Node* u) { return add_linked(u, u); }

  /// add for a u (just located) that covers the whole box beyond its
  /// coordinate `axis` (it is no greater than every member in the two other
  /// coordinates): instead of joining the set, u becomes that face of the
  /// box, so the passes after it do not walk it. The volume u adds.
  double add_face(Node* u, int axis);

 private:
  /// add, with `link` as the neighbour the members after u take in its place.
  double add_linked(Node* u, Node* link);

  std::vector<Node> pool_;
  std::size_t used_ = 0;
  Node* left_ = nullptr;   // (-inf, ref_y, -inf): wall above
  Node* right_ = nullptr;  // (ref_x, -inf, -inf): wall to the right
  Node* end_ = nullptr;    // (-inf, -inf, ref_z): closes the z order
};

/// HV4D+: exact hypervolume of k points of dimension 4 (all strictly inside
/// ref). O(n log n) sort, then O(n) per point: O(n^2).
double hv4d_plus(const double* p, std::size_t k, const double* ref);

/// Exact hypervolume for m = 5 (all points strictly inside ref): a sweep in
/// the fifth objective in which each point adds its four-dimensional
/// contribution, computed HV4D+-style on the earlier points clipped to its
/// box: O(n^2 s) for clipped sets of size s, O(n^3) at worst.
double hv5d_sweep(const double* p, std::size_t k, const double* ref);

}  // namespace rescue::moo::detail
