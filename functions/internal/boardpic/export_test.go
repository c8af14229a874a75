package boardpic

// Esc lets the pictures' tests escape a name as the SVG does.
var Esc = esc
