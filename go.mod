module github.com/pbmgames/pbm

go 1.26.8
