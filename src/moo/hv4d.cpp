#include "moo/hv4d.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

namespace rescue::moo::detail {
namespace {

using Node = ZStaircase::Node;

// Uncovered area of the quadrant {x >= ax, y >= ay}, walking the staircase
// rightwards from q, the step whose column holds ax: one strip per step until
// a step at or below ay closes the quadrant.
double area_right(double ax, double ay, const Node* q) {
  const Node* r = q->cur[0];
  double a = (q->x[1] - ay) * (r->x[0] - ax);
  while (ay < r->x[1]) {
    q = r;
    r = r->cur[0];
    a += (q->x[1] - ay) * (r->x[0] - q->x[0]);
  }
  return a;
}

// The same area walking upwards (leftwards) from q, the step whose row holds ay.
double area_up(double ax, double ay, const Node* q) {
  const Node* r = q->cur[1];
  double a = (q->x[0] - ax) * (r->x[1] - ay);
  while (ax < r->x[0]) {
    q = r;
    r = r->cur[1];
    a += (q->x[0] - ax) * (r->x[1] - q->x[1]);
  }
  return a;
}

// Lexicographic (z, y, x) order of the list; equal points count as before.
bool before_or_equal(const double* a, const double* b) {
  return a[2] < b[2] ||
         (a[2] == b[2] && (a[1] < b[1] || (a[1] == b[1] && a[0] <= b[0])));
}

// Whether a is a better neighbour than b in direction i: lexicographically
// smaller in (x[i], x[1-i], z). z breaks the tie when a replaces b, a node
// it dominates and removes, so no neighbour points at a removed node.
bool better(const double* a, const double* b, int i) {
  const int j = 1 - i;
  return a[i] < b[i] || (a[i] == b[i] && (a[j] < b[j] || (a[j] == b[j] && a[2] < b[2])));
}

// u's exclusive region in the (x, y) plane, swept up in z, starts as the
// part of u's quadrant above the staircase at u's height and shrinks as the
// nodes above u come in. u->cur[1] is the step bounding it above (left of
// u), u->cur[0] the step bounding it on the right (below u). Returns the
// starting area.
double open_region(Node* u) {
  u->cur[0] = u->close[0];
  u->cur[1] = u->close[1];
  return area_right(u->x[0], u->x[1], u->cur[1]);
}

// Node p, above u and not covering u in (x, y), comes in: the region loses
// what p covers of it, and p becomes a step of the region's staircase.
void shrink_region(Node* u, Node* p, double& area) {
  const double ux = u->x[0], uy = u->x[1];
  const double* px = p->x;
  p->cur[0] = p->close[0];
  p->cur[1] = p->close[1];
  if (px[0] < ux) {
    // Above and left of u: lowers the region's ceiling if below it.
    if (px[1] <= u->cur[1]->x[1]) {
      area -= area_right(ux, px[1], u->cur[1]);
      p->cur[1] = u->cur[1];
      p->cur[0]->cur[1] = p;
      u->cur[1] = p;
    }
  } else if (px[1] < uy) {
    // Right of and below u: moves the region's right wall if left of it.
    if (px[0] <= u->cur[0]->x[0]) {
      area -= area_up(px[0], uy, u->cur[0]);
      p->cur[0] = u->cur[0];
      p->cur[1]->cur[0] = p;
      u->cur[0] = p;
    }
  } else {
    // Inside u's quadrant: a new step of the region's staircase.
    area -= area_right(px[0], px[1], p->cur[1]);
    p->cur[1]->cur[0] = p;
    p->cur[0]->cur[1] = p;
  }
}

// u (just linked) meets node p after it: p is dropped if u weakly dominates
// it, else u may become one of its neighbours, through `link`: u itself, or
// the face of the box that u becomes (add_face). False once p strictly
// dominates u in (x, y): such a p is a better neighbour than u for every
// node after it, and dominates whatever u would drop.
bool relink(const Node* u, Node* p, Node* link) {
  const double ux = u->x[0], uy = u->x[1];
  const double* px = p->x;
  if (px[0] <= ux && px[1] <= uy && (px[0] < ux || px[1] < uy)) return false;
  if (ux <= px[0]) {
    if (uy <= px[1]) {
      p->prev->next = p->next;  // weakly dominated by u (p is not below u in z)
      p->next->prev = p->prev;
    } else if (ux < px[0] && better(u->x, p->close[1]->x, 1)) {
      p->close[1] = link;
    }
  } else if (uy < px[1] && better(u->x, p->close[0]->x, 0)) {
    p->close[0] = link;
  }
  return true;
}

}  // namespace

void ZStaircase::reset(const double* ref, std::size_t capacity) {
  if (pool_.size() < capacity + 3) pool_.resize(capacity + 3);
  used_ = 3;
  const double lo = std::numeric_limits<double>::lowest();
  left_ = &pool_[0];
  right_ = &pool_[1];
  end_ = &pool_[2];
  *left_ = Node{{lo, ref[1], lo}, right_, nullptr, {right_, left_}, {right_, left_}};
  *right_ = Node{{ref[0], lo, lo}, end_, left_, {right_, left_}, {right_, left_}};
  *end_ = Node{{lo, lo, ref[2]}, nullptr, right_, {right_, left_}, {right_, left_}};
}

bool ZStaircase::locate(Node* u) {
  const double ux = u->x[0], uy = u->x[1], uz = u->x[2];
  left_->cur[0] = right_;
  right_->cur[1] = left_;
  Node* c0 = right_;
  Node* c1 = left_;
  for (Node* p = right_->next;; p = p->next) {
    const double* px = p->x;
    if (px[0] <= ux && px[1] <= uy && px[2] <= uz) return false;
    if (!before_or_equal(px, u->x)) {
      u->close[0] = c0;
      u->close[1] = c1;
      u->prev = p->prev;
      u->next = p;
      return true;
    }
    // The sweep in z reaches p: it joins the staircase between its
    // neighbours, hiding whatever steps lay between them.
    p->cur[0] = p->close[0];
    p->cur[1] = p->close[1];
    p->close[0]->cur[1] = p;
    p->close[1]->cur[0] = p;
    // p does not dominate u, so it is either right of and below u or above
    // and left of it (or neither, when it shares a coordinate).
    if (px[1] < uy) {
      if (px[0] < c0->x[0] || (px[0] == c0->x[0] && px[1] < c0->x[1])) c0 = p;
    } else if (px[0] < ux) {
      if (px[1] < c1->x[1] || (px[1] == c1->x[1] && px[0] < c1->x[0])) c1 = p;
    }
  }
}

double ZStaircase::add_linked(Node* u, Node* link) {
  // The volume u adds and its insertion in one pass: both walk up from u,
  // the first until a node covers u in (x, y), the second until one strictly
  // does. Each node's step of the region uses its neighbours before u
  // relinks it.
  double area = open_region(u);
  double volume = 0.0, below = u->x[2];
  u->prev->next = u;
  u->next->prev = u;
  Node* p = u->next;
  for (; p != end_; p = p->next) {
    if (p->x[0] <= u->x[0] && p->x[1] <= u->x[1]) break;
    volume += area * (p->x[2] - below);
    below = p->x[2];
    shrink_region(u, p, area);
    relink(u, p, link);
  }
  volume += area * (p->x[2] - below);
  for (; p != end_ && relink(u, p, link); p = p->next) {
  }
  return volume;
}

double ZStaircase::add_face(Node* u, int axis) {
  Node* face = axis == 0 ? right_ : axis == 1 ? left_ : end_;
  const double volume = add_linked(u, face);
  // u leaves the list; the wall moves to it.
  u->prev->next = u->next;
  u->next->prev = u->prev;
  face->x[axis] = u->x[axis];
  return volume;
}

// HV4D+: sweep up in the fourth objective; the set seen so far, projected to
// (x, y, z), is a ZStaircase whose hypervolume grows by each point's 3-D
// contribution. Sorting O(n log n); each point costs one pass of locate,
// contribution and insert, O(n): O(n^2) in all, with a few comparisons per
// node and pass.
double hv4d_plus(const double* p, std::size_t k, const double* ref) {
  std::vector<std::int32_t> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return p[a * 4 + 3] < p[b * 4 + 3]; });
  ZStaircase set;
  set.reset(ref, k);
  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const double* q = p + order[r] * 4;
    ZStaircase::Node* u = set.make(q[0], q[1], q[2]);
    if (set.locate(u)) slice += set.add(u);
    const double next = r + 1 < k ? p[order[r + 1] * 4 + 3] : ref[3];
    volume += slice * (next - q[3]);
  }
  return volume;
}

}  // namespace rescue::moo::detail
