# genmove answers a legal vertex, plays it, and takes a big capture.
boardsize 9
clear_board
komi 7.5
play b C6
play b D6
play b E6
play b F6
play b G6
play b C4
play b D4
play b E4
play b F4
play b G4
play b B5
play w C5
play w D5
play w E5
play w F5
play w G5
# The white chain C5-G5 has one liberty, H5: taking five stones decides the game.
10 genmove b
#? [H5]

11 showboard
#? [.*captures black 5 white 0.*]

# After two passes genmove still answers.
play w pass
play b pass
12 genmove w
#? [[A-HJ]\d|PASS|resign]
