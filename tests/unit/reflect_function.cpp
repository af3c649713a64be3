// SPDX-License-Identifier: BSL-1.0
#include <agentry/reflect/function.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {

double area(int, const std::string&) { return 0; }
void nothing() noexcept {}

struct counter {
    int add(int n) { return total += n; }
    int get() const noexcept { return total; }
    int total = 0;
};

struct functor {
    bool operator()(double) const { return true; }
};

template <class F, class R, class... A>
constexpr bool is_signature = std::is_same_v<typename agentry::reflect::signature<F>::result, R> &&
                              std::is_same_v<typename agentry::reflect::signature<F>::parameters,
                                             agentry::reflect::type_list<A...>>;

} // namespace

TEST_CASE("signatures of functions and function pointers") {
    static_assert(is_signature<decltype(area), double, int, const std::string&>);
    static_assert(is_signature<decltype(&area), double, int, const std::string&>);
    static_assert(is_signature<decltype(&nothing), void>);
    static_assert(agentry::reflect::signature<decltype(&area)>::arity == 2);
    CHECK(agentry::reflect::signature<decltype(&nothing)>::arity == 0);
    nothing();
    CHECK(area(1, "x") == 0);
}

TEST_CASE("signatures of lambdas and function objects") {
    int captured = 3;
    auto capturing = [captured](long x) { return x + captured; };
    auto plain = [](const std::string&) {};
    static_assert(is_signature<decltype(capturing), long, long>);
    static_assert(is_signature<decltype(plain), void, const std::string&>);
    static_assert(is_signature<functor, bool, double>);
    CHECK(capturing(1) == 4);
}

TEST_CASE("signatures of member functions carry the class") {
    using add_sig = agentry::reflect::signature<decltype(&counter::add)>;
    using get_sig = agentry::reflect::signature<decltype(&counter::get)>;
    static_assert(std::is_same_v<add_sig::class_type, counter>);
    static_assert(std::is_same_v<get_sig::class_type, const counter>);
    static_assert(is_signature<decltype(&counter::get), int>);
    CHECK(add_sig::arity == 1);
}

TEST_CASE("generic and overloaded callables have no readable signature") {
    auto generic = [](auto x) { return x; };
    struct overloaded {
        void operator()(int) {}
        void operator()(double) {}
    };
    static_assert(!agentry::reflect::has_signature<decltype(generic)>);
    static_assert(!agentry::reflect::has_signature<overloaded>);
    static_assert(agentry::reflect::has_signature<functor>);
    CHECK(generic(2) == 2);
}
