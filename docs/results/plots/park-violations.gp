set title 'park: constraint-violation rate of the queries' noenhanced
set ylabel 'share of queries'
set yrange [0:1]
set key top right noenhanced
set grid ytics
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
plot './plots/park-violations.dat' using 2:xtic(1) lc rgb '#1b9e77' title 'observed (at the chosen fidelity)', '' using 3 lc rgb '#d95f02' title 'chosen x at the target fidelity'
