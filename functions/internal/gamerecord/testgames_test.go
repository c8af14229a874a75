package gamerecord_test

import "github.com/pbmgames/pbm/functions/internal/catalog"

// testGames are the games the tests play: the catalog's, as the wiring
// hands them to the functions.
var testGames = catalog.Games()
