// `assert/strict`: assert's strict forms.
return require('assert').strict;
