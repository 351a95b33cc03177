# The standard commands every controller sends on attach, and their formats.
1 protocol_version
#? [2]

2 name
#? [yeoul]

3 version
#? [[0-9]+\.[0-9]+\.[0-9]+ level normal \(8k\)]

4 known_command genmove
#? [true]

5 known_command frobnicate
#? [false]

6 frobnicate
#? [unknown command]

7 list_commands
#? [.*\nkgs-genmove_cleanup\n.*]
