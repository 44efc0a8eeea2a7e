# Self-play stress runs of the real binary (`tessera selfplay`): every move is checked for
# legality and key consistency and both clocks are kept, so a crash, an illegal move, a hash
# drift or a loss on time fails the test. The short runs take well under a minute; the long
# ones (250 games, about a quarter of an hour) carry their own label, which the default test
# preset leaves out: `ctest --preset selfplay-long` runs them.
add_test(NAME selfplay.nodes COMMAND tessera selfplay --games 300 --nodes 1000 --seed 1)
add_test(NAME selfplay.collisions
         COMMAND tessera selfplay --games 40 --nodes 2000 --tt-key-bits 4 --seed 5)
# The default tests run two at a time next to other work, where the scheduler alone can hold a
# move back by a hundred milliseconds: the short clock run allows that much overrun (and
# notes it); a move later than that still loses. The long runs, meant for a quiet machine, keep
# the clock strict.
add_test(NAME selfplay.clock
         COMMAND tessera selfplay --games 4 --tc 1+0.01 --clock-margin 500 --seed 2)
set_tests_properties(selfplay.nodes selfplay.collisions selfplay.clock
                     PROPERTIES LABELS selfplay TIMEOUT 300)

add_test(NAME selfplay-long.clock COMMAND tessera selfplay --games 200 --tc 1+0.01 --seed 3)
add_test(NAME selfplay-long.threads
         COMMAND tessera selfplay --games 50 --tc 1+0.01 --threads 2 --seed 4)
set_tests_properties(selfplay-long.clock selfplay-long.threads
                     PROPERTIES LABELS selfplay-long TIMEOUT 3600)
