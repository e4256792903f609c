set title 'branin-currin: chosen fidelities (after the initial design)' noenhanced
set xlabel 'fidelity'
set ylabel 'share of queries'
set key top center noenhanced
set grid
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
plot './plots/branin-currin-fidelity.dat' using 2:xtic(sprintf('%.2f', $1)) lc rgb '#1b9e77' title 'rescue', './plots/branin-currin-fidelity.dat' using 3:xtic(sprintf('%.2f', $1)) lc rgb '#d95f02' title 'hvkg', './plots/branin-currin-fidelity.dat' using 4:xtic(sprintf('%.2f', $1)) lc rgb '#7570b3' title 'ehvi', './plots/branin-currin-fidelity.dat' using 5:xtic(sprintf('%.2f', $1)) lc rgb '#e7298a' title 'momf', './plots/branin-currin-fidelity.dat' using 6:xtic(sprintf('%.2f', $1)) lc rgb '#66a61e' title 'random', './plots/branin-currin-fidelity.dat' using 7:xtic(sprintf('%.2f', $1)) lc rgb '#e6ab02' title 'cost-aware-random'
