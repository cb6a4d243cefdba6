// diffsched bench --plot: the gnuplot script of a report (bench_report.h).
#include <fmt/format.h>

#include "tools/bench_report.h"

namespace diffsched::tools {

std::string gnuplot_script(const Report& r, const std::string& png) {
  std::string s;
  auto quote = [](const std::string& x) {
    std::string q = "'";
    for (char ch : x) q += ch == '\'' ? std::string("''") : std::string(1, ch);
    return q + "'";
  };
  s += "set terminal pngcairo noenhanced size 1600,800\n";
  s += fmt::format("set output {}\n", quote(png));
  s += "$cpudl << EOD\n";
  for (size_t i = 0; i < r.cpudl.size(); ++i) {
    const TimeRow& t = r.cpudl[i];
    double stores = 0;
    for (const CountRow& c : r.counts)
      if (c.size == t.size) stores = c.hole.stores_per_op / c.swap.stores_per_op;
    s += fmt::format("{} \"{}\" {:.5f} {:.5f} {:.5f} {:.5f} {:.5f}\n", i, short_size(t.size),
                     t.ratio.median, t.ratio.p25, t.ratio.p75, t.ir_ratio(), stores);
  }
  s += "EOD\n$pick << EOD\n";
  size_t x = 0;
  for (const TimeRow& t : r.pick) {
    if (t.variant != "optimized") continue;
    const TimeRow* fused = nullptr;
    for (const TimeRow& f : r.pick)
      if (f.variant == "fused" && f.size == t.size) fused = &f;
    if (!fused) continue;
    s += fmt::format("{} \"{}\" {:.5f} {:.5f} {:.5f} {:.5f} {:.5f} {:.5f} {:.5f} {:.5f}\n", x++,
                     short_size(t.size), t.ratio.median, t.ratio.p25, t.ratio.p75, t.ir_ratio(),
                     fused->ratio.median, fused->ratio.p25, fused->ratio.p75, fused->ir_ratio());
  }
  s += "EOD\n";
  s += fmt::format(
      "set multiplot layout 1,2 title \"diffsched bench: optimized / reference, median and IQR "
      "over {} repetitions (below 1: the optimization wins)\"\n",
      r.repetitions);
  s += "set grid ytics\nset key below box\nset bmargin 11\nset xtics rotate by -45\n"
       "set ylabel 'ratio to reference'\nset xlabel 'CPUs/ops'\n";
  s += "set title 'cpudl_set(): hole / swap heapify (seed 000)'\n";
  s += fmt::format("set xrange [-0.5:{}-0.5]\nset yrange [*<0.8:1.1<*]\n", r.cpudl.size());
  s += "plot $cpudl using 1:(NaN):xtic(2) notitle, "
       "1 with lines lc 'black' dt 2 notitle, "
       "0.9 with lines lc 'gray40' dt 3 title 'seed: up to 10% faster', "
       "$cpudl using 1:3:4:5 with yerrorbars pt 7 lc 'blue' title 'time', "
       "$cpudl using 1:6 with points pt 5 lc 'red' title 'instructions (callgrind)', "
       "$cpudl using 1:7 with points pt 9 lc 'dark-green' title 'element stores per op (exact)'\n";
  s += "set title 'can_migrate_task() pick / for_each_cpu_and() loop (seed 004), log scale'\n";
  s += "set xlabel 'masks/nr_cpu_ids'\nset logscale y\nset yrange [*:*]\n";
  s += fmt::format("set xrange [-0.5:{}-0.5]\n", x);
  s += "plot $pick using 1:(NaN):xtic(2) notitle, "
       "1 with lines lc 'black' dt 2 notitle, "
       "0.72 with lines lc 'gray40' dt 3 title 'seed: 0.72x', "
       "$pick using ($1-0.12):3:4:5 with yerrorbars pt 7 lc 'blue' title 'optimized: time', "
       "$pick using ($1-0.12):6 with points pt 5 lc 'red' title 'optimized: instructions', "
       "$pick using ($1+0.12):7:8:9 with yerrorbars pt 6 lc 'dark-cyan' title 'fused (v6.15): "
       "time', "
       "$pick using ($1+0.12):10 with points pt 4 lc 'orange' title 'fused: instructions'\n";
  s += "unset multiplot\n";
  return s;
}

}  // namespace diffsched::tools
