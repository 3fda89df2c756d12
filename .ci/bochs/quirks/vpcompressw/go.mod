module vpcompressw

go 1.26
