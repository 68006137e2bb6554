# Sourced by scripts/bench.sh and scripts/bench-epiphany.sh: one gnuplot figure as a PNG in the directory $out.
#   plot <png> <title> <xlabel> <ylabel> <settings (log axes, ranges)> <gnuplot plot arguments>
plot() {
  gnuplot <<GP
set terminal pngcairo size 1000,600 noenhanced font ",10"
set output "$out/$1"
set title "$2"
set xlabel "$3"
set ylabel "$4"
set key left top
set grid
$5
plot $6
GP
}
