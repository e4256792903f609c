set title 'healthcare: best log10 hypervolume regret (mean +- 1 sd over seeds)' noenhanced
set xlabel 'cumulative cost (target-fidelity evaluations)'
set ylabel 'best log10 HV regret'
set key top right noenhanced
set grid
set style fill transparent solid 0.18 noborder
set arrow from 2, graph 0 to 2, graph 1 nohead dt 2 lc rgb '#888888'
plot './plots/healthcare-regret.dat' using 1:($2-$3):($2+$3) with filledcurves lc rgb '#1b9e77' notitle, '' using 1:2 with lines lw 2 lc rgb '#1b9e77' title 'rescue', \
     './plots/healthcare-regret.dat' using 1:($4-$5):($4+$5) with filledcurves lc rgb '#d95f02' notitle, '' using 1:4 with lines lw 2 lc rgb '#d95f02' title 'hvkg', \
     './plots/healthcare-regret.dat' using 1:($6-$7):($6+$7) with filledcurves lc rgb '#7570b3' notitle, '' using 1:6 with lines lw 2 lc rgb '#7570b3' title 'ehvi', \
     './plots/healthcare-regret.dat' using 1:($8-$9):($8+$9) with filledcurves lc rgb '#e7298a' notitle, '' using 1:8 with lines lw 2 lc rgb '#e7298a' title 'momf', \
     './plots/healthcare-regret.dat' using 1:($10-$11):($10+$11) with filledcurves lc rgb '#66a61e' notitle, '' using 1:10 with lines lw 2 lc rgb '#66a61e' title 'random'
